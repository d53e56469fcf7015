import { ComingSoon } from "../../components/coming-soon";

export default function KeywordsPage() {
  return <ComingSoon titleKey="menu.keywords" />;
}
