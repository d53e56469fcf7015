import { ComingSoon } from "../../components/coming-soon";

export default function TicketsPage() {
  return <ComingSoon titleKey="menu.tickets" />;
}
