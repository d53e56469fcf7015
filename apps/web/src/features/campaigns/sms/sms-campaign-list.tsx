import { useEffect, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, Chip, IconButton, MenuItem, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Tooltip, Typography } from "@mui/material";
import ListAltIcon from "@mui/icons-material/ListAlt";
import { useTranslation } from "react-i18next";
import { channel, SMS_CAMPAIGN_STATUSES, type SmsCampaign, formatPercent } from "@atende/shared";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { DateField, INVALID_DATE } from "../../../components/date-time-field";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../../components/empty-state";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { useCurrentUser } from "../../../lib/session";
import { formatInZone, useCompanyTimeZone } from "../../../lib/time-zone";
import { toast } from "../../../lib/toast";
import { errorText } from "../../../lib/toast-error";
import { logFailure } from "../../../lib/log-failure";
import { ApiError } from "../../../lib/api";
import { campaignKeys, fetchAllCostCenters, type CampaignFilters } from "../api/campaigns";
import { COUNTERS, WIDE, XWIDE } from "../components/campaign-row";
import { InvalidRowsDialog } from "../components/invalid-rows-dialog";
import { cancelSmsCampaign, fetchSmsInvalidRows, fetchSmsReport, pauseSmsCampaign, resumeSmsCampaign, smsKeys, SMS_PAGE_SIZE, triggerSmsCampaign } from "./api";
import { smsDeliveryPercent } from "./delivery-percent";
import { SmsRowAction, type SmsAction } from "./sms-row-action";

const EMPTY: CampaignFilters = { status: "", startDate: "", endDate: "", costCenterId: "" };
const REFRESH_MS = 30_000;
const COLORS: Record<string, "default" | "primary" | "secondary" | "error" | "info" | "success" | "warning"> = {
  MISSING_FILE: "info",
  ANALYZING: "info",
  READY: "success",
  ACTIVE: "success",
  SCHEDULED: "warning",
  RUNNING: "primary",
  PAUSED: "secondary",
  ERROR: "error",
};
const statusKey = (s: string) => `campaigns.sms.status.${(SMS_CAMPAIGN_STATUSES as readonly string[]).includes(s) ? s : "unknown"}`;


/** The SMS tab of /campaigns (spec 3 §2, §4): filters, 40 a page, status labels, row actions, 30 s refresh and live events. */
export function SmsCampaignList() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const timeZone = useCompanyTimeZone();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<CampaignFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<number | null>(null);
  const applied: CampaignFilters = {
    ...filters,
    startDate: filters.startDate === INVALID_DATE ? "" : filters.startDate,
    endDate: filters.endDate === INVALID_DATE ? "" : filters.endDate,
  };
  const list = useQuery({
    queryKey: smsKeys.list(applied, page),
    queryFn: ({ signal }) => fetchSmsReport(applied, page, signal),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const costCenters = useQuery({ queryKey: campaignKeys.costCenters, queryFn: ({ signal }) => fetchAllCostCenters(signal) });

  useEffect(() => {
    if (!list.error) return;
    logFailure("sms campaign list", list.error);
    toast.error(t("campaigns.errors.list"), { toastId: "sms-campaigns-list" });
  }, [list.error, t]);
  useEffect(() => {
    if (!costCenters.error) return;
    logFailure("cost centers", costCenters.error);
    toast.error(t("campaigns.errors.costCenters"), { toastId: "campaigns-cost-centers" });
  }, [costCenters.error, t]);

  // live events (at most one a second per campaign): the page on screen is read again
  const refresh = () => void queryClient.invalidateQueries({ queryKey: smsKeys.lists });
  useSocketEvent(channel.smsCampaignCreated(user.companyId), refresh);
  useSocketEvent(channel.smsCampaignUpdated(user.companyId), refresh);
  useSocketEvent("connect", refresh);

  const pages = Math.max(Math.ceil((list.data?.count ?? 0) / SMS_PAGE_SIZE), 1);
  const setFilter = (patch: Partial<CampaignFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const [cancelling, setCancelling] = useState<SmsCampaign | null>(null);
  const [showInvalid, setShowInvalid] = useState<SmsCampaign | null>(null);

  async function act(c: SmsCampaign, action: SmsAction) {
    setBusy(c.id);
    const call = { trigger: triggerSmsCampaign, pause: pauseSmsCampaign, resume: resumeSmsCampaign, cancel: cancelSmsCampaign }[action];
    const done = { trigger: "triggered", pause: "paused", resume: "resumed", cancel: "cancelled" }[action];
    try {
      await call(c.id);
      toast.success(t(`campaigns.sms.toasts.${done}`));
      await queryClient.invalidateQueries({ queryKey: smsKeys.lists });
    } catch (err) {
      logFailure(`sms campaign ${action}`, err, { campaignId: c.id });
      toast.error(err instanceof ApiError && err.status === 409 ? errorText(err) : t(`campaigns.sms.errors.${action}`));
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, minmax(0, 220px)) auto" }, gap: 1.5, mb: 2, alignItems: "start" }}>
        <TextField select size="small" label={t("campaigns.filters.status")} value={filters.status} onChange={(e) => setFilter({ status: e.target.value })} slotProps={{ htmlInput: { "data-testid": "sms-filter-status" } }}>
          <MenuItem value="">{t("campaigns.filters.all")}</MenuItem>
          {SMS_CAMPAIGN_STATUSES.filter((s) => s !== "ACTIVE").map((s) => (
            <MenuItem key={s} value={s}>
              {t(statusKey(s))}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label={t("campaigns.filters.costCenter")} value={filters.costCenterId} onChange={(e) => setFilter({ costCenterId: e.target.value })}>
          <MenuItem value="">{t("campaigns.filters.all")}</MenuItem>
          {(costCenters.data ?? []).map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <DateField size="small" name="startDate" label={t("campaigns.filters.startDate")} value={filters.startDate} onChange={(v) => setFilter({ startDate: v })} />
        <DateField size="small" name="endDate" label={t("campaigns.filters.endDate")} value={filters.endDate} onChange={(v) => setFilter({ endDate: v })} />
        <Button onClick={() => setFilter(EMPTY)} sx={{ justifySelf: "start", gridColumn: { xs: "1 / -1", md: "auto" } }}>
          {t("campaigns.filters.clear")}
        </Button>
      </Box>
      <Paper variant="outlined" sx={{ overflowX: "auto" }}>
        <Table size="small" aria-label={t("campaigns.channels.sms")} sx={{ "& td, & th": { px: { xs: 1, md: 1.5 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t("campaigns.sms.columns.title")}</TableCell>
              <TableCell>{t("campaigns.sms.columns.status")}</TableCell>
              <TableCell sx={XWIDE}>{t("campaigns.sms.columns.source")}</TableCell>
              <TableCell sx={WIDE}>{t("campaigns.sms.columns.createdAt")}</TableCell>
              <TableCell sx={XWIDE}>{t("campaigns.sms.columns.costCenter")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("campaigns.sms.columns.total")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("campaigns.sms.columns.invalid")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("campaigns.sms.columns.triggered")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("campaigns.sms.columns.delivered")}</TableCell>
              <TableCell align="right" sx={COUNTERS}>{t("campaigns.sms.columns.notDelivered")}</TableCell>
              <TableCell align="right" sx={COUNTERS}>{t("campaigns.sms.columns.clicks")}</TableCell>
              <TableCell align="right">{t("campaigns.sms.columns.deliveryPercent")}</TableCell>
              <TableCell align="right">{t("campaigns.sms.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.results.map((c) => (
              <TableRow key={c.id} hover data-testid={`sms-campaign-${c.id}`}>
                <TableCell sx={{ wordBreak: "break-word", minWidth: 120 }}>
                  {c.title}
                  {c.tags.length > 0 && (
                    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap", mt: 0.5 }}>
                      {c.tags.map((tag) => (
                        <Chip key={tag} label={tag} size="small" variant="outlined" />
                      ))}
                    </Box>
                  )}
                </TableCell>
                <TableCell>
                  <Tooltip title={c.status === "ERROR" ? c.error_message : c.accountViolation}>
                    <Chip size="small" color={COLORS[c.status] ?? "default"} label={t(statusKey(c.status))} data-testid="sms-status" />
                  </Tooltip>
                  {c.outside_window && (
                    <Typography variant="caption" color="warning.main" sx={{ display: "block" }}>
                      {t("campaigns.sms.actions.outsideWindow", { start: c.start_hour, end: c.end_hour })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={XWIDE}>{c.source}</TableCell>
                <TableCell sx={WIDE}>{formatInZone(c.created_at, timeZone)}</TableCell>
                <TableCell sx={XWIDE}>{c.cost_center}</TableCell>
                <TableCell align="right" sx={WIDE}>{c.total}</TableCell>
                <TableCell align="right" sx={WIDE}>
                  {c.invalid > 0 ? (
                    <Tooltip title={t("campaigns.actions.invalidRows")}>
                      <Box component="button" type="button" data-testid="sms-invalid" onClick={() => setShowInvalid(c)} sx={{ all: "unset", cursor: "pointer", color: "error.main", textDecoration: "underline" }}>
                        {c.invalid}
                      </Box>
                    </Tooltip>
                  ) : (
                    0
                  )}
                </TableCell>
                <TableCell align="right" sx={WIDE} data-testid="sms-triggered">{c.triggered}</TableCell>
                <TableCell align="right" sx={WIDE} data-testid="sms-delivered">{c.delivered}</TableCell>
                <TableCell align="right" sx={COUNTERS}>{c.not_delivered}</TableCell>
                <TableCell align="right" sx={COUNTERS}>{c.clicks}</TableCell>
                <TableCell align="right" data-testid="sms-delivery-percent">{formatPercent(smsDeliveryPercent(c), i18n.language)}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {c.invalid > 0 && (
                    <Tooltip title={t("campaigns.actions.invalidRows")}>
                      <IconButton size="small" aria-label={t("campaigns.actions.invalidRows")} onClick={() => setShowInvalid(c)} sx={{ display: { md: "none" } }}>
                        <ListAltIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <SmsRowAction c={c} timeZone={timeZone} busy={busy === c.id} onAction={(x, a) => (a === "cancel" ? setCancelling(x) : void act(x, a))} />
                </TableCell>
              </TableRow>
            ))}
            {list.isLoading && <TableRowsSkeleton columns={13} />}
            {list.isSuccess && list.data.results.length === 0 && <EmptyTableRow colSpan={13}>{t("campaigns.sms.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, mt: 1.5 }}>
        <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {t("campaigns.pagination.previous")}
        </Button>
        <Typography variant="body2" data-testid="sms-page-label">
          {t("campaigns.pagination.page", { page, pages })}
        </Typography>
        <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          {t("campaigns.pagination.next")}
        </Button>
      </Box>
      <InvalidRowsDialog campaign={showInvalid} address="phone" queryKey={smsKeys.invalidRows} fetchPage={fetchSmsInvalidRows} onClose={() => setShowInvalid(null)} />
      <ConfirmationDialog
        open={cancelling !== null}
        title={t("campaigns.sms.actions.cancel")}
        confirmLabel={t("campaigns.sms.actions.cancel")}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && void act(cancelling, "cancel")}
      >
        {t("campaigns.sms.confirmCancel", { title: cancelling?.title ?? "" })}
      </ConfirmationDialog>
    </>
  );
}
