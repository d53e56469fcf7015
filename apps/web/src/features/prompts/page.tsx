import { ComingSoon } from "../../components/coming-soon";

export default function PromptsPage() {
  return <ComingSoon titleKey="menu.prompts" />;
}
