import { ComingSoon } from "../../components/coming-soon";

export default function UsersPage() {
  return <ComingSoon titleKey="menu.users" />;
}
