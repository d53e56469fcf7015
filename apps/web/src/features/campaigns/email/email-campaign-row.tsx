import { Chip, CircularProgress, IconButton, TableCell, TableRow, Tooltip } from "@mui/material";
import SendIcon from "@mui/icons-material/Send";
import ErrorIcon from "@mui/icons-material/Error";
import { useTranslation } from "react-i18next";
import { emailCampaignTriggerEnabled, emailDeliveryPercent, EMAIL_CAMPAIGN_STATUSES, type EmailCampaign } from "@atende/shared";
import { formatInZone } from "../../../lib/time-zone";
import { WIDE, XWIDE } from "../components/campaign-row";

const COLORS: Record<string, "default" | "primary" | "secondary" | "error" | "info" | "success" | "warning"> = {
  ACTIVE: "success",
  MISSING_FILE: "info",
  SPLITTING: "info",
  ANALYZING: "info",
  TRIGGERING: "warning",
  RUNNING: "primary",
  PAUSED: "secondary",
  FINISHED: "default",
  CANCELLED: "default",
  ERROR: "error",
};
export const emailStatusKey = (s: string) => `emailCampaigns.status.${(EMAIL_CAMPAIGN_STATUSES as readonly string[]).includes(s) ? s : "unknown"}`;

interface Props {
  campaign: EmailCampaign;
  timeZone: string;
  busy: boolean;
  onTrigger(c: EmailCampaign): void;
}

/** One e-mail campaign (spec §3, §4): RUNNING, MISSING_FILE and ANALYZING disabled; otherwise trigger, enabled only when ACTIVE and from the web. */
export function EmailCampaignRow({ campaign: c, timeZone, busy, onTrigger }: Props) {
  const { t } = useTranslation();
  const enabled = emailCampaignTriggerEnabled(c) && !busy;
  return (
    <TableRow hover data-testid="email-campaign-row" data-status={c.status}>
      <TableCell sx={{ wordBreak: "break-word" }}>{c.title}</TableCell>
      <TableCell>
        <Chip size="small" color={COLORS[c.status] ?? "default"} label={t(emailStatusKey(c.status))} data-testid="email-status" />
      </TableCell>
      <TableCell sx={XWIDE}>{t(c.source === 2 ? "emailCampaigns.source.web" : "emailCampaigns.source.api")}</TableCell>
      <TableCell sx={WIDE}>{formatInZone(c.created_at, timeZone)}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-sent">{c.count_emails_sent}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-delivered">{c.count_emails_delivered}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-opened">{c.count_emails_opened}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-clicked">{c.count_emails_clicked}</TableCell>
      <TableCell align="right" sx={XWIDE}>{c.count_emails_not_delivered}</TableCell>
      <TableCell align="right">{emailDeliveryPercent(c)}%</TableCell>
      <TableCell align="right">
        {c.status === "ERROR" ? (
          <Tooltip title={c.error_message}>
            <ErrorIcon color="error" aria-label={c.error_message} />
          </Tooltip>
        ) : (
          <Tooltip title={t("emailCampaigns.trigger")}>
            <span>
              <IconButton size="small" color="primary" aria-label={t("emailCampaigns.trigger")} disabled={!enabled} onClick={() => onTrigger(c)}>
                {busy ? <CircularProgress size={18} /> : <SendIcon fontSize="small" />}
              </IconButton>
            </span>
          </Tooltip>
        )}
      </TableCell>
    </TableRow>
  );
}
