import { ComingSoon } from "../../components/coming-soon";

export default function QuickMessagesPage() {
  return <ComingSoon titleKey="menu.quickMessages" />;
}
