import { useState } from "react";
import { Box, Chip, CircularProgress, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, TableCell, TableRow, Tooltip } from "@mui/material";
import SendIcon from "@mui/icons-material/Send";
import MoreVertIcon from "@mui/icons-material/MoreVert";
import PauseIcon from "@mui/icons-material/Pause";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import CancelOutlinedIcon from "@mui/icons-material/CancelOutlined";
import ListAltIcon from "@mui/icons-material/ListAlt";
import { useTranslation } from "react-i18next";
import {
  emailCampaignRowAction,
  emailCampaignSecondaryActions,
  emailCampaignTriggerEnabled,
  emailDeliveryPercent,
  EMAIL_CAMPAIGN_STATUSES,
  type EmailCampaign,
  formatPercent,
} from "@atende/shared";
import { formatInZone } from "../../../lib/time-zone";
import { COUNTERS, WIDE, XWIDE } from "../components/campaign-row";

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

const SECONDARY_ICONS = {
  pause: <PauseIcon fontSize="small" color="warning" />,
  resume: <PlayArrowIcon fontSize="small" color="success" />,
  cancel: <CancelOutlinedIcon fontSize="small" />,
};

/**
 * One e-mail campaign (spec §3, §4). The row's action is spec §4's, exactly (`emailCampaignRowAction`
 * in packages/shared): RUNNING disabled, MISSING_FILE/ANALYZING disabled, otherwise Disparar, enabled
 * only for ACTIVE + source 2. Pause, resume and cancel (`emailCampaignSecondaryActions`) sit in the
 * row's "more actions" menu; an ERROR campaign's message is the status chip's tooltip.
 */
export function EmailCampaignRow({ campaign: c, timeZone, busy, onAction, onShowInvalid }: Props) {
  const { t, i18n } = useTranslation();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const kind = emailCampaignRowAction(c);
  const secondary = emailCampaignSecondaryActions(c);
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
    kind === "running"
      ? button(t("emailCampaigns.actions.running"), <SendIcon fontSize="small" />, null)
      : kind === "analyzing"
        ? button(t("emailCampaigns.actions.analyzing"), <HourglassEmptyIcon fontSize="small" />, null)
        : button(t("emailCampaigns.trigger"), <SendIcon fontSize="small" />, emailCampaignTriggerEnabled(c) ? "trigger" : null, "primary");
  const chip = <Chip size="small" color={COLORS[c.status] ?? "default"} label={t(emailStatusKey(c.status))} data-testid="email-status" />;
  return (
    <TableRow hover data-testid="email-campaign-row" data-status={c.status}>
      <TableCell sx={{ wordBreak: "break-word" }}>{c.title}</TableCell>
      <TableCell>
        {c.status === "ERROR" && c.error_message ? (
          <Tooltip title={c.error_message}>
            <span aria-label={c.error_message}>{chip}</span>
          </Tooltip>
        ) : (
          chip
        )}
      </TableCell>
      <TableCell sx={XWIDE}>{t(c.source === 2 ? "emailCampaigns.source.web" : "emailCampaigns.source.api")}</TableCell>
      <TableCell sx={WIDE}>{formatInZone(c.created_at, timeZone)}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-sent">{c.count_emails_sent}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-delivered">{c.count_emails_delivered}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-opened">{c.count_emails_opened}</TableCell>
      <TableCell align="right" sx={WIDE} data-testid="email-clicked">{c.count_emails_clicked}</TableCell>
      <TableCell align="right" sx={COUNTERS}>{c.count_emails_not_delivered}</TableCell>
      <TableCell align="right">{formatPercent(emailDeliveryPercent(c), i18n.language)}</TableCell>
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
            {/* keeps the row's action in the same column when there is no menu */}
            {secondary.length === 0 && <Box component="span" sx={{ display: "inline-block", width: 34 }} aria-hidden />}
            {secondary.length > 0 && (
              <>
                <Tooltip title={t("emailCampaigns.actions.more")}>
                  <IconButton
                    size="small"
                    aria-label={t("emailCampaigns.actions.more")}
                    aria-haspopup="menu"
                    aria-expanded={menu ? "true" : undefined}
                    onClick={(e) => setMenu(e.currentTarget)}
                  >
                    <MoreVertIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)} anchorOrigin={{ vertical: "bottom", horizontal: "right" }} transformOrigin={{ vertical: "top", horizontal: "right" }}>
                  {secondary.map((a) => (
                    <MenuItem
                      key={a}
                      onClick={() => {
                        setMenu(null);
                        onAction(c, a);
                      }}
                    >
                      <ListItemIcon>{SECONDARY_ICONS[a]}</ListItemIcon>
                      <ListItemText>{t(`emailCampaigns.actions.${a}`)}</ListItemText>
                    </MenuItem>
                  ))}
                </Menu>
              </>
            )}
          </>
        )}
      </TableCell>
    </TableRow>
  );
}
