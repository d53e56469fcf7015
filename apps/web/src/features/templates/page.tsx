import { ComingSoon } from "../../components/coming-soon";

export default function TemplatesPage() {
  return <ComingSoon titleKey="menu.templates" />;
}
