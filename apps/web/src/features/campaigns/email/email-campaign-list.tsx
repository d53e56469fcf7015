import { useEffect, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, MenuItem, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { channel, EMAIL_CAMPAIGN_STATUSES, type EmailCampaign, type EmailCampaignEvent, type EmailCampaignsPage } from "@atende/shared";
import { DateField, INVALID_DATE } from "../../../components/date-time-field";
import { TableRowsSkeleton } from "../../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../../components/empty-state";
import { patchLive } from "../../../lib/patch-live";
import { useSocketEvent } from "../../../lib/use-socket-event";
import { useCompanyTimeZone } from "../../../lib/time-zone";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { logFailure } from "../../../lib/log-failure";
import { campaignKeys, fetchAllCostCenters, type CampaignFilters } from "../api/campaigns";
import { matchesFilters } from "../components/filter-campaigns";
import { COUNTERS, WIDE, XWIDE } from "../components/campaign-row";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { EmailCampaignRow, type EmailAction } from "./email-campaign-row";
import { InvalidRowsDialog } from "../components/invalid-rows-dialog";
import { cancelEmailCampaign, emailCampaignKeys, fetchEmailCampaigns, fetchEmailInvalidRows, pauseEmailCampaign, resumeEmailCampaign, triggerEmailCampaign } from "./api";

const EMPTY: CampaignFilters = { status: "", startDate: "", endDate: "", costCenterId: "" };
const REFRESH_MS = 30_000;
const PAGE_SIZE = 40;

const asFilterable = (c: EmailCampaign) => ({ createdAt: c.created_at, status: c.status, costCenterId: c.cost_center_id });

/** The E-mail tab of /campaigns (spec §2, §4, §9): filters, 40 a page, 30 s refresh and the email-campaign socket event. */
export function EmailCampaignList({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const timeZone = useCompanyTimeZone();
  const [filters, setFilters] = useState<CampaignFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<number | null>(null);
  const applied: CampaignFilters = {
    ...filters,
    startDate: filters.startDate === INVALID_DATE ? "" : filters.startDate,
    endDate: filters.endDate === INVALID_DATE ? "" : filters.endDate,
  };
  const key = emailCampaignKeys.list(applied, page);
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchEmailCampaigns(applied, page, signal), refetchInterval: REFRESH_MS, placeholderData: keepPreviousData });
  const costCenters = useQuery({ queryKey: campaignKeys.costCenters, queryFn: ({ signal }) => fetchAllCostCenters(signal) });

  useEffect(() => {
    if (list.error) {
      logFailure("e-mail campaign list", list.error);
      toast.error(t("campaigns.errors.list"), { toastId: "email-campaigns-list" });
    }
  }, [list.error, t]);
  useEffect(() => {
    if (costCenters.error) {
      logFailure("cost centers", costCenters.error);
      toast.error(t("campaigns.errors.costCenters"), { toastId: "campaigns-cost-centers" });
    }
  }, [costCenters.error, t]);

  useSocketEvent("connect", () => void list.refetch());
  useSocketEvent<EmailCampaignEvent>(channel.emailCampaign(companyId), (payload) => {
    const c = payload.campaign;
    patchLive<EmailCampaignsPage>(queryClient, key, (old) => {
      if (!old) return old;
      const fits = matchesFilters(asFilterable(c), applied, timeZone);
      if (old.results.some((x) => x.id === c.id)) {
        return { ...old, results: fits ? old.results.map((x) => (x.id === c.id ? c : x)) : old.results.filter((x) => x.id !== c.id) };
      }
      if (payload.action !== "create" || page !== 1 || !fits) return old;
      return { ...old, results: [c, ...old.results].slice(0, PAGE_SIZE), count: old.count + 1 };
    });
  });

  const pages = Math.max(Math.ceil((list.data?.count ?? 0) / PAGE_SIZE), 1);
  const setFilter = (patch: Partial<CampaignFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const [cancelling, setCancelling] = useState<EmailCampaign | null>(null);
  const [showInvalid, setShowInvalid] = useState<EmailCampaign | null>(null);

  async function act(c: EmailCampaign, action: EmailAction) {
    setBusy(c.id);
    const call = { trigger: triggerEmailCampaign, pause: pauseEmailCampaign, resume: resumeEmailCampaign, cancel: cancelEmailCampaign }[action];
    const done = { trigger: "emailCampaigns.triggered", pause: "emailCampaigns.toasts.paused", resume: "emailCampaigns.toasts.resumed", cancel: "emailCampaigns.toasts.cancelled" }[action];
    try {
      const updated = await call(c.id);
      queryClient.setQueryData<EmailCampaignsPage>(key, (old) => old && { ...old, results: old.results.map((x) => (x.id === updated.id ? updated : x)) });
      toast.success(t(done));
      await queryClient.invalidateQueries({ queryKey: emailCampaignKeys.lists });
    } catch (err) {
      logFailure(`e-mail campaign ${action}`, err, { campaignId: c.id });
      toastError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, minmax(0, 220px)) auto" }, gap: 1.5, mb: 2, alignItems: "start" }}>
        <TextField select size="small" label={t("campaigns.filters.status")} value={filters.status} onChange={(e) => setFilter({ status: e.target.value })} slotProps={{ htmlInput: { "data-testid": "email-filter-status" } }}>
          <MenuItem value="">{t("campaigns.filters.all")}</MenuItem>
          {EMAIL_CAMPAIGN_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`emailCampaigns.status.${s}`)}
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
        <Table size="small" aria-label={t("emailCampaigns.title")} sx={{ "& td, & th": { px: { xs: 1, md: 1.5 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t("emailCampaigns.columns.title")}</TableCell>
              <TableCell>{t("campaigns.columns.status")}</TableCell>
              <TableCell sx={XWIDE}>{t("campaigns.columns.source")}</TableCell>
              <TableCell sx={WIDE}>{t("campaigns.columns.createdAt")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("emailCampaigns.columns.sent")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("emailCampaigns.columns.delivered")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("emailCampaigns.columns.opened")}</TableCell>
              <TableCell align="right" sx={WIDE}>{t("emailCampaigns.columns.clicked")}</TableCell>
              <TableCell align="right" sx={COUNTERS}>{t("emailCampaigns.columns.notDelivered")}</TableCell>
              <TableCell align="right">{t("campaigns.columns.deliveryPercent")}</TableCell>
              <TableCell align="right">{t("campaigns.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.data?.results.map((c) => (
              <EmailCampaignRow key={c.id} campaign={c} timeZone={timeZone} busy={busy === c.id} onAction={(x, a) => (a === "cancel" ? setCancelling(x) : void act(x, a))} onShowInvalid={setShowInvalid} />
            ))}
            {list.isLoading && <TableRowsSkeleton columns={11} />}
            {list.isSuccess && list.data.results.length === 0 && <EmptyTableRow colSpan={11}>{t("campaigns.empty")}</EmptyTableRow>}
          </TableBody>
        </Table>
      </Paper>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, mt: 1.5 }}>
        <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {t("campaigns.pagination.previous")}
        </Button>
        <Typography variant="body2" data-testid="email-page-label">
          {t("campaigns.pagination.page", { page, pages })}
        </Typography>
        <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          {t("campaigns.pagination.next")}
        </Button>
      </Box>
      <InvalidRowsDialog campaign={showInvalid} address="email" queryKey={emailCampaignKeys.invalidRows} fetchPage={fetchEmailInvalidRows} onClose={() => setShowInvalid(null)} />
      <ConfirmationDialog
        open={cancelling !== null}
        title={t("emailCampaigns.actions.cancel")}
        confirmLabel={t("emailCampaigns.actions.cancel")}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && void act(cancelling, "cancel")}
      >
        {t("emailCampaigns.confirmCancel", { title: cancelling?.title ?? "" })}
      </ConfirmationDialog>
    </>
  );
}
