import { Box, Chip, CircularProgress, IconButton, LinearProgress, TableCell, TableRow, Tooltip, Typography } from "@mui/material";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import ErrorIcon from "@mui/icons-material/Error";
import PauseIcon from "@mui/icons-material/Pause";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import ReportProblemOutlinedIcon from "@mui/icons-material/ReportProblemOutlined";
import ListAltIcon from "@mui/icons-material/ListAlt";
import EventIcon from "@mui/icons-material/Event";
import { useTranslation } from "react-i18next";
import { campaignDeliveryPercent, campaignRowAction, type Campaign, formatPercent } from "@atende/shared";
import { formatInZone } from "../../../lib/time-zone";
import { isKnownStatus, STATUS_COLORS, statusKey } from "./status";

/** Columns shown from tablets up (hidden at 390 px: name, status, delivery % and the action stay). */
export const WIDE = { display: { xs: "none", md: "table-cell" } } as const;
/** The send counters (Enviadas, Lidas, Respondidas, Falhas; the SMS and e-mail lists' Não entregues): from a laptop's 1366 px (lg, ≥ 1200 px) up. */
export const COUNTERS = { display: { xs: "none", lg: "table-cell" } } as const;
/** Columns shown on large screens only (≥ 1536 px); below, the source goes under the name. */
export const XWIDE = { display: { xs: "none", xl: "table-cell" } } as const;

interface Props {
  campaign: Campaign;
  timeZone: string;
  busy: boolean;
  onStart(c: Campaign): void;
  onPause(c: Campaign): void;
  onShowInvalid(c: Campaign): void;
}

function Progress({ c }: { c: Campaign }) {
  const { t } = useTranslation();
  if (c.status === "ANALYZING") {
    return (
      <Box sx={{ minWidth: 110 }}>
        <LinearProgress aria-label={t("campaigns.columns.progress")} />
        <Typography variant="caption" color="text.secondary">
          {t("campaigns.analysed", { count: c.analysedRows })}
        </Typography>
      </Box>
    );
  }
  if (c.status !== "RUNNING") return null;
  const valid = Math.max(c.countTotal - c.countInvalid, 0);
  const value = valid > 0 ? Math.min(100, (c.countProcessed / valid) * 100) : 0;
  return (
    <Box sx={{ minWidth: 110 }}>
      <LinearProgress variant="determinate" value={value} aria-label={t("campaigns.columns.progress")} />
      <Typography variant="caption" color="text.secondary">
        {t("campaigns.processed", { done: c.countProcessed, total: valid })}
      </Typography>
    </Box>
  );
}

/** The row action of spec §4 (the rule is campaignRowAction in packages/shared). */
function RowAction({ c, busy, onStart, onPause }: { c: Campaign; busy: boolean; onStart(): void; onPause(): void }) {
  const { t } = useTranslation();
  const action = campaignRowAction(c);
  if (busy) return <CircularProgress size={20} aria-label="…" />;
  switch (action.kind) {
    case "finished":
      return (
        <Tooltip title={t("campaigns.actions.finished")}>
          <span>
            <IconButton size="small" disabled aria-label={t("campaigns.actions.finished")}>
              <CheckCircleIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      );
    case "error":
      return (
        <Tooltip title={action.message || t("campaigns.status.ERROR")}>
          <ErrorIcon color="error" fontSize="small" aria-label={action.message || t("campaigns.status.ERROR")} sx={{ m: 0.625 }} />
        </Tooltip>
      );
    case "pause":
      return (
        <Tooltip title={t("campaigns.actions.pause")}>
          <IconButton size="small" color="warning" aria-label={t("campaigns.actions.pause")} onClick={onPause}>
            <PauseIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      );
    case "waiting":
      return (
        <Tooltip title={t("campaigns.actions.waiting")}>
          <span>
            <IconButton size="small" disabled aria-label={t("campaigns.actions.waiting")}>
              <HourglassEmptyIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      );
    default:
      return (
        <Tooltip title={t("campaigns.actions.start")}>
          <span>
            <IconButton size="small" color="success" disabled={action.disabled} aria-label={t("campaigns.actions.start")} onClick={onStart}>
              <PlayArrowIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      );
  }
}

export function CampaignRow({ campaign: c, timeZone, busy, onStart, onPause, onShowInvalid }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <TableRow hover data-testid="campaign-row" data-status={c.status}>
      <TableCell sx={{ maxWidth: { xs: 120, md: 220 } }}>
        <Typography variant="body2" fontWeight={500} noWrap title={c.name}>
          {c.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" noWrap sx={{ display: { xs: "block", xl: "none" } }}>
          {c.source} · {c.costCenterName}
        </Typography>
        <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", mt: 0.25 }}>
          {c.accountViolation && (
            <Chip size="small" color="warning" variant="outlined" icon={<ReportProblemOutlinedIcon />} label={c.accountViolation} data-testid="account-violation" />
          )}
          {c.scheduledAt && (
            <Chip size="small" variant="outlined" icon={<EventIcon />} label={t("campaigns.scheduledFor", { when: formatInZone(c.scheduledAt, timeZone) })} />
          )}
        </Box>
        <Progress c={c} />
      </TableCell>
      <TableCell>
        <Chip size="small" label={t(statusKey(c.status))} color={isKnownStatus(c.status) ? STATUS_COLORS[c.status] : "default"} data-testid="campaign-status" />
      </TableCell>
      <TableCell sx={XWIDE}>{c.source}</TableCell>
      <TableCell sx={{ ...WIDE, whiteSpace: "nowrap" }}>{formatInZone(c.createdAt, timeZone)}</TableCell>
      <TableCell sx={XWIDE}>{c.costCenterName}</TableCell>
      <TableCell align="right" sx={WIDE}>{c.countTotal}</TableCell>
      <TableCell align="right" sx={WIDE}>
        {c.countInvalid > 0 ? (
          <Tooltip title={t("campaigns.actions.invalidRows")}>
            <Box component="button" type="button" onClick={() => onShowInvalid(c)} sx={{ all: "unset", cursor: "pointer", color: "error.main", textDecoration: "underline" }}>
              {c.countInvalid}
            </Box>
          </Tooltip>
        ) : (
          0
        )}
      </TableCell>
      <TableCell align="right" sx={COUNTERS}>{c.countSent}</TableCell>
      <TableCell align="right" sx={WIDE}>{c.countDelivered}</TableCell>
      <TableCell align="right" sx={COUNTERS}>{c.countRead}</TableCell>
      <TableCell align="right" sx={COUNTERS}>{c.countReplied}</TableCell>
      <TableCell align="right" sx={COUNTERS}>{c.countFailed}</TableCell>
      <TableCell align="right" data-testid="delivery-percent">{formatPercent(campaignDeliveryPercent(c), i18n.language)}</TableCell>
      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
        {c.countInvalid > 0 && (
          <Tooltip title={t("campaigns.actions.invalidRows")}>
            <IconButton size="small" aria-label={t("campaigns.actions.invalidRows")} onClick={() => onShowInvalid(c)} sx={{ display: { md: "none" } }}>
              <ListAltIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <RowAction c={c} busy={busy} onStart={() => onStart(c)} onPause={() => onPause(c)} />
      </TableCell>
    </TableRow>
  );
}
