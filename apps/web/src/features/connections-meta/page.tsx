import { ComingSoon } from "../../components/coming-soon";

export default function ConnectionsMetaPage() {
  return <ComingSoon titleKey="menu.numbers" />;
}
