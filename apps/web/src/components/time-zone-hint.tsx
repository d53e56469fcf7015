import { Box, Typography } from "@mui/material";
import PublicIcon from "@mui/icons-material/Public";
import { useTranslation } from "react-i18next";
import { useCompanyTimeZone, zoneLabel } from "../lib/time-zone";

/** Shown wherever a time is entered: the times are the company's, whatever the browser's zone. */
export function TimeZoneHint() {
  const { t } = useTranslation();
  const zone = useCompanyTimeZone();
  return (
    <Box data-testid="time-zone-hint" sx={{ display: "flex", alignItems: "center", gap: 0.5, color: "text.secondary" }}>
      <PublicIcon sx={{ fontSize: 16 }} />
      <Typography variant="caption">{t("timeZone.hint", { zone: zoneLabel(zone) })}</Typography>
    </Box>
  );
}
