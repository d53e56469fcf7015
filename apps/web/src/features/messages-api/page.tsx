import { ComingSoon } from "../../components/coming-soon";

export default function MessagesApiPage() {
  return <ComingSoon titleKey="menu.messagesApi" />;
}
