import { ComingSoon } from "../../components/coming-soon";

export default function AnnouncementsPage() {
  return <ComingSoon titleKey="menu.announcements" />;
}
