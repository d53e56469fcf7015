import { Box, Chip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { countSmsSegments, smsTemplateVariables } from "@atende/shared";

/** Under the SMS content: the {{variables}} found and the GSM-7 / UCS-2 segment count, as the user types. */
export function SmsSegmentsHint({ content }: { content: string }) {
  const { t } = useTranslation();
  const variables = smsTemplateVariables(content);
  const s = countSmsSegments(content);
  return (
    <Box sx={{ display: "grid", gap: 1 }}>
      <Typography variant="caption" color="text.secondary" data-testid="sms-segments">
        {t("messageTemplates.sms.segments", { encoding: s.encoding, units: s.units, segments: s.segments, remaining: s.remaining })}
      </Typography>
      {s.encoding === "UCS-2" && s.nonGsmCharacters.length > 0 && (
        <Typography variant="caption" color="warning.main" data-testid="sms-non-gsm">
          {t("messageTemplates.sms.nonGsm", { characters: s.nonGsmCharacters.join(" ") })}
        </Typography>
      )}
      <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", alignItems: "center" }} data-testid="sms-variables">
        <Typography variant="caption" color="text.secondary">
          {t("messageTemplates.sms.variables")}:
        </Typography>
        {variables.length === 0 && (
          <Typography variant="caption" color="text.secondary">
            {t("messageTemplates.sms.noVariables", { example: "{{nome}}" })}
          </Typography>
        )}
        {variables.map((v) => (
          <Chip key={v} size="small" label={`{{${v}}}`} />
        ))}
      </Box>
    </Box>
  );
}
