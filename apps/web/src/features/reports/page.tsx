import { ComingSoon } from "../../components/coming-soon";

export default function ReportsPage() {
  return <ComingSoon titleKey="menu.reports" />;
}
