import { ComingSoon } from "../../components/coming-soon";

export default function CampaignsPage() {
  return <ComingSoon titleKey="menu.campaigns" />;
}
