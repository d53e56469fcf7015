import { ComingSoon } from "../../components/coming-soon";

export default function ChatsPage() {
  return <ComingSoon titleKey="menu.chats" />;
}
