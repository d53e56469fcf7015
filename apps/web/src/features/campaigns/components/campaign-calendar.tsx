import { useEffect, useMemo, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Box, Button, IconButton, Paper, Tooltip, Typography } from "@mui/material";
import ChevronLeftIcon from "@mui/icons-material/ChevronLeft";
import ChevronRightIcon from "@mui/icons-material/ChevronRight";
import EditIcon from "@mui/icons-material/Edit";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import AddIcon from "@mui/icons-material/Add";
import { useTranslation } from "react-i18next";
import { dateToZonedLocal, type Campaign } from "@atende/shared";
import { ConfirmationDialog } from "../../../components/confirmation-dialog";
import { formatInZone } from "../../../lib/time-zone";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { logFailure } from "../../../lib/log-failure";
import { campaignKeys, fetchCalendar, unscheduleCampaign } from "../api/campaigns";
import { ScheduleDialog } from "./schedule-dialog";

const pad = (n: number) => String(n).padStart(2, "0");
function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

/** The month view of scheduled campaign starts, with edit and delete per event (spec §2). */
export function CampaignCalendar({ timeZone, candidates }: { timeZone: string; candidates: Campaign[] }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [month, setMonth] = useState(() => dateToZonedLocal(new Date(), timeZone).slice(0, 7));
  const events = useQuery({ queryKey: campaignKeys.calendar(month), queryFn: ({ signal }) => fetchCalendar(month, signal) });
  const [editing, setEditing] = useState<{ open: boolean; campaign: Campaign | null }>({ open: false, campaign: null });
  const [deleting, setDeleting] = useState<Campaign | null>(null);

  useEffect(() => {
    if (events.error) {
      logFailure("campaign calendar", events.error, { month });
      toast.error(t("campaigns.errors.calendar"));
    }
  }, [events.error, month, t]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: campaignKeys.all });
  const [y, m] = month.split("-").map(Number) as [number, number];
  const firstWeekday = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const byDay = useMemo(() => {
    const map = new Map<number, Campaign[]>();
    for (const c of events.data ?? []) {
      if (!c.scheduledAt) continue;
      const day = Number(dateToZonedLocal(new Date(c.scheduledAt), timeZone).slice(8, 10));
      map.set(day, [...(map.get(day) ?? []), c]);
    }
    return map;
  }, [events.data, timeZone]);
  const formatted = new Intl.DateTimeFormat(i18n.language, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, 1)));
  const title = formatted.charAt(0).toUpperCase() + formatted.slice(1);
  const sorted = [...(events.data ?? [])].filter((c) => c.scheduledAt).sort((a, b) => a.scheduledAt!.localeCompare(b.scheduledAt!));
  const cells = [...Array<null>(firstWeekday).fill(null), ...Array.from({ length: days }, (_, i) => i + 1)];

  async function remove(c: Campaign) {
    try {
      await unscheduleCampaign(c.id);
      toast.success(t("campaigns.calendar.deleted"));
      refresh();
    } catch (err) {
      toastError(err);
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }} data-testid="campaign-calendar">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 1.5, flexWrap: "wrap" }}>
        <IconButton aria-label={t("campaigns.calendar.previous")} onClick={() => setMonth(shiftMonth(month, -1))}>
          <ChevronLeftIcon />
        </IconButton>
        <Typography variant="h6" sx={{ minWidth: 180, textAlign: "center" }} data-testid="calendar-month">
          {title}
        </Typography>
        <IconButton aria-label={t("campaigns.calendar.next")} onClick={() => setMonth(shiftMonth(month, 1))}>
          <ChevronRightIcon />
        </IconButton>
        <Box sx={{ flexGrow: 1 }} />
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing({ open: true, campaign: null })}>
          {t("campaigns.calendar.schedule")}
        </Button>
      </Box>
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(7, minmax(0, 1fr))", gap: 0.5 }}>
        {t("campaigns.calendar.weekdays")
          .split(",")
          .map((d) => (
            <Typography key={d} variant="caption" color="text.secondary" sx={{ textAlign: "center", fontWeight: 600 }}>
              {d}
            </Typography>
          ))}
        {cells.map((day, i) => (
          <Box
            key={i}
            sx={{ minHeight: { xs: 56, md: 96 }, border: 1, borderColor: "divider", borderRadius: 1, p: 0.5, bgcolor: day ? "background.paper" : "action.hover", overflow: "hidden" }}
          >
            {day && (
              <Typography variant="caption" color="text.secondary">
                {day}
              </Typography>
            )}
            {day &&
              (byDay.get(day) ?? []).map((c) => (
                <Box
                  key={c.id}
                  data-testid="calendar-event"
                  sx={{ display: "flex", alignItems: "center", bgcolor: "primary.main", color: "primary.contrastText", borderRadius: 0.75, pl: 0.5, mt: 0.25, minWidth: 0 }}
                >
                  <Typography variant="caption" noWrap sx={{ flexGrow: 1, minWidth: 0 }} title={`${formatInZone(c.scheduledAt!, timeZone, "HH:mm")} ${c.name}`}>
                    {formatInZone(c.scheduledAt!, timeZone, "HH:mm")}
                    <Box component="span" sx={{ display: { xs: "none", md: "inline" } }}> {c.name}</Box>
                  </Typography>
                  <Tooltip title={t("campaigns.calendar.edit")}>
                    <IconButton size="small" sx={{ color: "inherit", p: 0.25, display: { xs: "none", md: "inline-flex" } }} aria-label={t("campaigns.calendar.edit")} onClick={() => setEditing({ open: true, campaign: c })}>
                      <EditIcon sx={{ fontSize: 14 }} />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t("campaigns.calendar.delete")}>
                    <IconButton size="small" sx={{ color: "inherit", p: 0.25, display: { xs: "none", md: "inline-flex" } }} aria-label={t("campaigns.calendar.delete")} onClick={() => setDeleting(c)}>
                      <DeleteOutlineIcon sx={{ fontSize: 14 }} />
                    </IconButton>
                  </Tooltip>
                </Box>
              ))}
          </Box>
        ))}
      </Box>
      {/* on a phone the cells only mark the time: the month's sends are listed below with their actions */}
      <Box sx={{ display: { xs: "block", md: "none" }, mt: 1.5 }}>
        {sorted.map((c) => (
          <Box key={c.id} data-testid="agenda-event" sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.75, borderBottom: 1, borderColor: "divider" }}>
            <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
              {formatInZone(c.scheduledAt!, timeZone, "dd/MM HH:mm")}
            </Typography>
            <Typography variant="body2" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
              {c.name}
            </Typography>
            <IconButton size="small" aria-label={t("campaigns.calendar.edit")} onClick={() => setEditing({ open: true, campaign: c })}>
              <EditIcon fontSize="small" />
            </IconButton>
            <IconButton size="small" color="error" aria-label={t("campaigns.calendar.delete")} onClick={() => setDeleting(c)}>
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Box>
        ))}
      </Box>
      {events.isSuccess && events.data.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          {t("campaigns.calendar.none")}
        </Typography>
      )}
      <ScheduleDialog
        open={editing.open}
        campaign={editing.campaign}
        candidates={candidates}
        timeZone={timeZone}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
        onSaved={refresh}
      />
      <ConfirmationDialog open={deleting !== null} title={t("campaigns.calendar.deleteTitle")} onClose={() => setDeleting(null)} onConfirm={() => deleting && void remove(deleting)}>
        {t("campaigns.calendar.deleteMessage")}
      </ConfirmationDialog>
    </Paper>
  );
}
