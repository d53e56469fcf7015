import { useState } from "react";
import { Button, MenuItem, TextField } from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { EmailTemplates } from "./components/email-templates";
import { SmsTemplates } from "./components/sms-templates";
import { WhatsappTemplates } from "./components/whatsapp-templates";

/**
 * Templates (spec 3 §2): a campaign-type selector and each type's own list. WhatsApp templates come
 * from Meta and are read-only here; SMS and e-mail templates are written here (the add button shows
 * only for them).
 */
const CAMPAIGN_TYPES = ["whatsapp", "sms", "email"] as const;
type CampaignType = (typeof CAMPAIGN_TYPES)[number];

export default function TemplatesPage() {
  const { t } = useTranslation();
  const [type, setType] = useState<CampaignType>("whatsapp");
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageHeading title={t("campaignTemplates.title")}>
        <TextField
          select
          size="small"
          label={t("campaignTemplates.campaignType")}
          value={type}
          onChange={(e) => {
            setAdding(false);
            setType(e.target.value as CampaignType);
          }}
          sx={{ minWidth: 180 }}
          slotProps={{ select: { SelectDisplayProps: { "data-testid": "campaign-type" } as object } }}
        >
          {CAMPAIGN_TYPES.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`campaignTemplates.types.${value}`)}
            </MenuItem>
          ))}
        </TextField>
        {type !== "whatsapp" && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
            {t("messageTemplates.add")}
          </Button>
        )}
      </PageHeading>
      {type === "whatsapp" && <WhatsappTemplates />}
      {type === "sms" && <SmsTemplates adding={adding} onAddClose={() => setAdding(false)} />}
      {type === "email" && <EmailTemplates adding={adding} onAddClose={() => setAdding(false)} />}
    </>
  );
}
