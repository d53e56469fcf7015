import { ComingSoon } from "../../components/coming-soon";

export default function QueuesPage() {
  return <ComingSoon titleKey="menu.queues" />;
}
