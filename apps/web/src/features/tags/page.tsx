import { ComingSoon } from "../../components/coming-soon";

export default function TagsPage() {
  return <ComingSoon titleKey="menu.tags" />;
}
