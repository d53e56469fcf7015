import { Box, Chip, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { OfficialWhatsapp } from "@atende/shared";

/** Quality rating colours (1-core §2): RED, YELLOW, GREEN; anything else is neutral. */
export const QUALITY_COLORS: Record<string, { bg: string; fg: string }> = {
  GREEN: { bg: "#2e7d32", fg: "#ffffff" },
  YELLOW: { bg: "#f9a825", fg: "#000000" },
  RED: { bg: "#c62828", fg: "#ffffff" },
};

/** phoneStatus: ACTIVE green, DISABLED red (with the reason as tooltip). */
export function PhoneStatusChip({ row }: { row: OfficialWhatsapp }) {
  const { t } = useTranslation();
  const active = row.phoneStatus === "ACTIVE";
  const chip = (
    <Chip
      size="small"
      label={t(`connectionsMeta.phoneStatus.${row.phoneStatus}`)}
      data-testid="phone-status"
      data-value={row.phoneStatus}
      sx={{ bgcolor: active ? "#2e7d32" : "#c62828", color: "#fff", fontWeight: 600 }}
    />
  );
  return row.phoneStatusReason ? <Tooltip title={row.phoneStatusReason}>{chip}</Tooltip> : chip;
}

/** The number's health: phone status, a token Meta refused (REAUTH_REQUIRED), quality rating, operating status and whether it can send. */
export function HealthBadges({ row }: { row: OfficialWhatsapp }) {
  const { t } = useTranslation();
  const quality = QUALITY_COLORS[row.qualityScore];
  const errors = row.healthErrors.map((e) => `${e.code} ${e.description}`.trim()).join("\n");
  return (
    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", alignItems: "center" }}>
      <PhoneStatusChip row={row} />
      {row.status === "REAUTH_REQUIRED" && (
        <Chip size="small" color="error" label={t("connectionsMeta.health.REAUTH_REQUIRED")} data-testid="reauth-required" sx={{ fontWeight: 600 }} />
      )}
      <Tooltip title={t("connectionsMeta.health.quality")}>
        <Chip
          size="small"
          label={t(`connectionsMeta.quality.${row.qualityScore}`, { defaultValue: row.qualityScore })}
          data-testid="quality"
          data-value={row.qualityScore}
          sx={quality ? { bgcolor: quality.bg, color: quality.fg, fontWeight: 600 } : undefined}
        />
      </Tooltip>
      {row.operatingStatus !== "CONNECTED" && (
        <Tooltip title={t("connectionsMeta.health.operating")}>
          <Chip size="small" variant="outlined" color="warning" label={row.operatingStatus} data-testid="operating-status" />
        </Tooltip>
      )}
      {row.canSendMessage && row.canSendMessage !== "AVAILABLE" && (
        <Tooltip title={errors || t("connectionsMeta.health.canSend")}>
          <Chip size="small" variant="outlined" color={row.canSendMessage === "BLOCKED" ? "error" : "warning"} label={t(`connectionsMeta.health.${row.canSendMessage}`, { defaultValue: row.canSendMessage })} />
        </Tooltip>
      )}
    </Box>
  );
}
