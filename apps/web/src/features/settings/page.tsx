import { ComingSoon } from "../../components/coming-soon";

export default function SettingsPage() {
  return <ComingSoon titleKey="menu.settings" />;
}
