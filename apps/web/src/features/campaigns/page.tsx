import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Box,
  Button,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from "@mui/material";
import AddIcon from "@mui/icons-material/Add";
import { useTranslation } from "react-i18next";
import { CAMPAIGN_STATUSES, type Campaign } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { DateField, INVALID_DATE } from "../../components/date-time-field";
import { TableRowsSkeleton } from "../../components/table-rows-skeleton";
import { EmptyTableRow } from "../../components/empty-state";
import { useSocketEvent } from "../../lib/use-socket-event";
import { useCurrentUser } from "../../lib/session";
import { useCompanyTimeZone } from "../../lib/time-zone";
import { toast } from "../../lib/toast";
import { logFailure } from "../../lib/log-failure";
import { campaignKeys, fetchAllCostCenters, fetchCampaigns, pauseCampaign, startCampaign, type CampaignFilters } from "./api/campaigns";
import { CampaignRow, COUNTERS, WIDE, XWIDE } from "./components/campaign-row";
import { CampaignCalendar } from "./components/campaign-calendar";
import { RecipientsDialog } from "./components/recipients-dialog";
import { useCampaignLive } from "./components/use-campaign-live";
import { SmsCampaignList } from "./sms/sms-campaign-list";
import { EmailCampaignList } from "./email/email-campaign-list";

const EMPTY: CampaignFilters = { status: "", startDate: "", endDate: "", costCenterId: "" };
/** Spec §9: campaign lists refresh every 30 s. */
const REFRESH_MS = 30_000;

/** /campaigns: the WhatsApp campaign list (spec 3 §2, §4) and the calendar of scheduled starts. */
export default function CampaignsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const timeZone = useCompanyTimeZone();
  const queryClient = useQueryClient();
  const [view, setView] = useState<"list" | "calendar">("list");
  // the channel selector (spec §2): WhatsApp here, SMS in ./sms, E-mail in ./email (kept in the URL: ?channel=)
  const [params, setParams] = useSearchParams();
  const channelParam = params.get("channel");
  const channelKind = channelParam === "sms" || channelParam === "email" ? channelParam : "whatsapp";
  const [filters, setFilters] = useState<CampaignFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<number | null>(null);
  const [invalidOf, setInvalidOf] = useState<Campaign | null>(null);
  // a half-typed date is not sent until it is a whole date
  const applied: CampaignFilters = {
    ...filters,
    startDate: filters.startDate === INVALID_DATE ? "" : filters.startDate,
    endDate: filters.endDate === INVALID_DATE ? "" : filters.endDate,
  };

  const list = useQuery({
    queryKey: campaignKeys.list(applied, page),
    queryFn: ({ signal }) => fetchCampaigns(applied, page, signal),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
    enabled: channelKind === "whatsapp",
  });
  const costCenters = useQuery({ queryKey: campaignKeys.costCenters, queryFn: ({ signal }) => fetchAllCostCenters(signal) });

  useEffect(() => {
    if (list.error) {
      logFailure("campaign list", list.error);
      toast.error(t("campaigns.errors.list"), { toastId: "campaigns-list" });
    }
  }, [list.error, t]);
  useEffect(() => {
    if (costCenters.error) {
      logFailure("cost centers", costCenters.error);
      toast.error(t("campaigns.errors.costCenters"), { toastId: "campaigns-cost-centers" });
    }
  }, [costCenters.error, t]);

  // a change made before this page's socket connected (an analysis of a few rows ends in milliseconds)
  // is read again once it connects, not 30 s later
  useSocketEvent("connect", () => void list.refetch());
  useCampaignLive(user.companyId, applied, page, timeZone, () => void queryClient.invalidateQueries({ queryKey: ["campaigns", "calendar"] }));

  const pages = Math.max(list.data?.countPages ?? 1, 1);
  const setFilter = (patch: Partial<CampaignFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  async function act(c: Campaign, kind: "start" | "pause") {
    setBusy(c.id);
    try {
      await (kind === "start" ? startCampaign(c.id) : pauseCampaign(c.id));
      toast.success(t(kind === "start" ? "campaigns.started" : "campaigns.paused"));
      await queryClient.invalidateQueries({ queryKey: campaignKeys.lists });
    } catch (err) {
      logFailure(`campaign ${kind}`, err, { campaignId: c.id });
      toast.error(t(kind === "start" ? "campaigns.errors.start" : "campaigns.errors.pause"));
    } finally {
      setBusy(null);
    }
  }

  const schedulable = (list.data?.data ?? []).filter((c) => ["READY", "PAUSED", "ANALYZING"].includes(c.status));

  return (
    <>
      <PageHeading title={t("campaigns.title")}>
        <TextField
          select
          size="small"
          label={t("campaigns.channel")}
          value={channelKind}
          onChange={(e) => setParams(e.target.value === "whatsapp" ? {} : { channel: e.target.value })}
          sx={{ minWidth: 140 }}
          slotProps={{ htmlInput: { "data-testid": "campaign-channel" } }}
        >
          <MenuItem value="whatsapp">{t("campaigns.channels.whatsapp")}</MenuItem>
          <MenuItem value="sms">{t("campaigns.channels.sms")}</MenuItem>
          <MenuItem value="email">{t("campaigns.channels.email")}</MenuItem>
        </TextField>
        {channelKind === "whatsapp" && (
          <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, v: "list" | "calendar" | null) => v && setView(v)}>
            <ToggleButton value="list">{t("campaigns.views.list")}</ToggleButton>
            <ToggleButton value="calendar">{t("campaigns.views.calendar")}</ToggleButton>
          </ToggleButtonGroup>
        )}
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => void navigate(channelKind === "whatsapp" ? "/new-campaign" : `/new-campaign?channel=${channelKind}`)}>
          {t("campaigns.new")}
        </Button>
      </PageHeading>

      {channelKind === "sms" ? (
        <SmsCampaignList />
      ) : channelKind === "email" ? (
        <EmailCampaignList companyId={user.companyId} />
      ) : view === "calendar" ? (
        <CampaignCalendar timeZone={timeZone} candidates={schedulable} />
      ) : (
        <>
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, minmax(0, 220px)) auto" }, gap: 1.5, mb: 2, alignItems: "start" }}>
            <TextField select size="small" label={t("campaigns.filters.status")} value={filters.status} onChange={(e) => setFilter({ status: e.target.value })} slotProps={{ htmlInput: { "data-testid": "filter-status" } }}>
              <MenuItem value="">{t("campaigns.filters.all")}</MenuItem>
              {CAMPAIGN_STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {t(`campaigns.status.${s}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={t("campaigns.filters.costCenter")}
              value={filters.costCenterId}
              onChange={(e) => setFilter({ costCenterId: e.target.value })}
            >
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
            <Table size="small" aria-label={t("campaigns.title")} sx={{ "& td, & th": { px: { xs: 1, md: 1.5 } } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t("campaigns.columns.name")}</TableCell>
                  <TableCell>{t("campaigns.columns.status")}</TableCell>
                  <TableCell sx={XWIDE}>{t("campaigns.columns.source")}</TableCell>
                  <TableCell sx={WIDE}>{t("campaigns.columns.createdAt")}</TableCell>
                  <TableCell sx={XWIDE}>{t("campaigns.columns.costCenter")}</TableCell>
                  <TableCell align="right" sx={WIDE}>{t("campaigns.columns.total")}</TableCell>
                  <TableCell align="right" sx={WIDE}>{t("campaigns.columns.invalid")}</TableCell>
                  <TableCell align="right" sx={COUNTERS}>{t("campaigns.columns.sent")}</TableCell>
                  <TableCell align="right" sx={WIDE}>{t("campaigns.columns.delivered")}</TableCell>
                  <TableCell align="right" sx={COUNTERS}>{t("campaigns.columns.read")}</TableCell>
                  <TableCell align="right" sx={COUNTERS}>{t("campaigns.columns.replied")}</TableCell>
                  <TableCell align="right" sx={COUNTERS}>{t("campaigns.columns.failed")}</TableCell>
                  <TableCell align="right">{t("campaigns.columns.deliveryPercent")}</TableCell>
                  <TableCell align="right">{t("campaigns.columns.actions")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.data?.data.map((c) => (
                  <CampaignRow
                    key={c.id}
                    campaign={c}
                    timeZone={timeZone}
                    busy={busy === c.id}
                    onStart={(x) => void act(x, "start")}
                    onPause={(x) => void act(x, "pause")}
                    onShowInvalid={setInvalidOf}
                  />
                ))}
                {list.isLoading && <TableRowsSkeleton columns={14} />}
                {list.isSuccess && list.data.data.length === 0 && <EmptyTableRow colSpan={14}>{t("campaigns.empty")}</EmptyTableRow>}
              </TableBody>
            </Table>
          </Paper>
          <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, mt: 1.5 }}>
            <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t("campaigns.pagination.previous")}
            </Button>
            <Typography variant="body2" data-testid="page-label">
              {t("campaigns.pagination.page", { page, pages })}
            </Typography>
            <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {t("campaigns.pagination.next")}
            </Button>
          </Box>
        </>
      )}
      <RecipientsDialog campaign={invalidOf} onClose={() => setInvalidOf(null)} />
    </>
  );
}
