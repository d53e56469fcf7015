import { useState } from "react";
import { MenuItem, TextField } from "@mui/material";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { WhatsappTemplates } from "./components/whatsapp-templates";

/**
 * Templates (spec 3 §2): a campaign-type selector and each type's own list. Only WhatsApp exists so
 * far (SMS and e-mail arrive with their issue, with the add button they need); WhatsApp templates
 * come from Meta and are read-only here.
 */
const CAMPAIGN_TYPES = ["whatsapp"] as const;
type CampaignType = (typeof CAMPAIGN_TYPES)[number];

export default function TemplatesPage() {
  const { t } = useTranslation();
  const [type, setType] = useState<CampaignType>("whatsapp");
  return (
    <>
      <PageHeading title={t("campaignTemplates.title")}>
        <TextField
          select
          size="small"
          label={t("campaignTemplates.campaignType")}
          value={type}
          onChange={(e) => setType(e.target.value as CampaignType)}
          sx={{ minWidth: 180 }}
        >
          {CAMPAIGN_TYPES.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`campaignTemplates.types.${value}`)}
            </MenuItem>
          ))}
        </TextField>
      </PageHeading>
      {type === "whatsapp" && <WhatsappTemplates />}
    </>
  );
}
