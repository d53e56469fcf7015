import { Chip, CircularProgress, IconButton, TableCell, TableRow, Tooltip } from "@mui/material";
import SendIcon from "@mui/icons-material/Send";
import ErrorIcon from "@mui/icons-material/Error";
import PauseIcon from "@mui/icons-material/Pause";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import CancelOutlinedIcon from "@mui/icons-material/CancelOutlined";
import ListAltIcon from "@mui/icons-material/ListAlt";
import { useTranslation } from "react-i18next";
import {
  EMAIL_CANCELLABLE,
  emailCampaignRowAction,
  emailCampaignTriggerEnabled,
  emailDeliveryPercent,
  EMAIL_CAMPAIGN_STATUSES,
  type EmailCampaign,
} from "@atende/shared";
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

export type EmailAction = "trigger" | "pause" | "resume" | "cancel";

interface Props {
  campaign: EmailCampaign;
  timeZone: string;
  busy: boolean;
  onAction(c: EmailCampaign, action: EmailAction): void;
  onShowInvalid(c: EmailCampaign): void;
}

/**
 * One e-mail campaign (spec §3, §4). The main action is `emailCampaignRowAction` (packages/shared):
 * sending → pause, PAUSED → resume, in analysis disabled, ERROR its message, otherwise trigger (enabled
 * only when ACTIVE and from the web); a cancel beside it while the campaign can be cancelled.
 */
export function EmailCampaignRow({ campaign: c, timeZone, busy, onAction, onShowInvalid }: Props) {
  const { t } = useTranslation();
  const kind = emailCampaignRowAction(c);
  const button = (label: string, icon: React.ReactNode, action: EmailAction | null, color?: "warning" | "primary" | "success") => (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" color={color} aria-label={label} disabled={action === null} onClick={action ? () => onAction(c, action) : undefined}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  const main =
    kind === "error" ? (
      <Tooltip title={c.error_message}>
        <ErrorIcon color="error" aria-label={c.error_message} />
      </Tooltip>
    ) : kind === "pause" ? (
      button(t("emailCampaigns.actions.pause"), <PauseIcon fontSize="small" />, "pause", "warning")
    ) : kind === "resume" ? (
      button(t("emailCampaigns.actions.resume"), <PlayArrowIcon fontSize="small" />, "resume", "success")
    ) : kind === "disabled" ? (
      button(t("emailCampaigns.actions.analyzing"), <HourglassEmptyIcon fontSize="small" />, null)
    ) : (
      button(t("emailCampaigns.trigger"), <SendIcon fontSize="small" />, kind === "trigger" && emailCampaignTriggerEnabled(c) ? "trigger" : null, "primary")
    );
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
      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
        {busy ? (
          <CircularProgress size={20} aria-label="…" />
        ) : (
          <>
            {c.invalid > 0 && (
              <Tooltip title={t("campaigns.actions.invalidRows")}>
                <IconButton size="small" aria-label={t("campaigns.actions.invalidRows")} onClick={() => onShowInvalid(c)}>
                  <ListAltIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
            {main}
            {(EMAIL_CANCELLABLE as readonly string[]).includes(c.status) &&
              button(t("emailCampaigns.actions.cancel"), <CancelOutlinedIcon fontSize="small" />, "cancel")}
          </>
        )}
      </TableCell>
    </TableRow>
  );
}
