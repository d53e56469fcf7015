import { ComingSoon } from "../../components/coming-soon";

export default function QueueIntegrationPage() {
  return <ComingSoon titleKey="menu.queueIntegration" />;
}
