import { ComingSoon } from "../../components/coming-soon";

export default function CostCentersPage() {
  return <ComingSoon titleKey="menu.costCenters" />;
}
