import { ComingSoon } from "../../components/coming-soon";

export default function ContactsPage() {
  return <ComingSoon titleKey="menu.contacts" />;
}
