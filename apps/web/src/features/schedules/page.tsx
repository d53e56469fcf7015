import { ComingSoon } from "../../components/coming-soon";

export default function SchedulesPage() {
  return <ComingSoon titleKey="menu.schedules" />;
}
