import { ComingSoon } from "../../components/coming-soon";

export default function FinanceiroPage() {
  return <ComingSoon titleKey="menu.financeiro" />;
}
