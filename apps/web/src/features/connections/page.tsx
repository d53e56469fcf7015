import { ComingSoon } from "../../components/coming-soon";

export default function ConnectionsPage() {
  return <ComingSoon titleKey="menu.connections" />;
}
