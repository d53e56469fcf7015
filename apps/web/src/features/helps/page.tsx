import { ComingSoon } from "../../components/coming-soon";

export default function HelpsPage() {
  return <ComingSoon titleKey="menu.helps" />;
}
