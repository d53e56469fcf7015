import { ComingSoon } from "../../components/coming-soon";

export default function SubscriptionPage() {
  return <ComingSoon titleKey="menu.subscription" />;
}
