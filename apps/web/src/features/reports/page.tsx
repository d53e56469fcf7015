import { useMemo, useState } from "react";
import { Alert, Box, Typography } from "@mui/material";
import { useSearchParams } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { PageHeading } from "../../components/page-heading";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { errorText } from "../../lib/toast-error";
import { useReportOptions } from "./api/options";
import { useReportSummary } from "./api/summary";
import type { TicketListParams } from "./api/tickets";
import { useReportVolume } from "./api/volume";
import { BreakdownTabs, type RowDrill } from "./components/breakdown-tabs";
import { ReportFilters } from "./components/report-filters";
import { SummaryCards, type Drill } from "./components/summary-cards";
import { TicketListDialog } from "./components/ticket-list-dialog";
import { VolumeChart } from "./components/volume-chart";
import { apiFilters, filterFromUrl, filterToUrl, type ReportFilter } from "./filter";

const dayLabel = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** Reports (`/reports`, supervisors and above): figures, volume, breakdowns and the tickets behind each, for the filters in the URL. */
export default function ReportsPage() {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const [search, setSearch] = useSearchParams();
  const today = formatInZone(new Date(), timeZone, "yyyy-MM-dd");
  const filter = useMemo(() => filterFromUrl(search, today), [search, today]);
  const filters = useMemo(() => apiFilters(filter), [filter]);
  const options = useReportOptions();
  const summary = useReportSummary(filters);
  const volume = useReportVolume(filters);
  const [list, setList] = useState<{ params: TicketListParams; title: string } | null>(null);

  const apply = (next: ReportFilter) => setSearch(filterToUrl(next), { replace: true });
  const listTitle = (d: Drill) => (d.rating ? t("reports.list.rating", { n: d.rating }) : t(`reports.list.${d.metric}`));
  const openList = (d: Drill) => setList({ params: { filters, metric: d.metric, rating: d.rating }, title: listTitle(d) });
  const openRow = (d: RowDrill) => setList({ params: { filters: { ...filters, ...d.narrow }, metric: d.metric }, title: `${listTitle(d)} · ${d.title}` });
  const failed = summary.error ?? volume.error;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, minWidth: 0 }}>
      <PageHeading title={t("reports.title")}>
        <Typography variant="body2" color="text.secondary" data-testid="report-range">
          {t("reports.rangeShown", { from: dayLabel(filter.dateFrom), to: dayLabel(filter.dateTo) })}
        </Typography>
      </PageHeading>
      <ReportFilters value={filter} onChange={apply} onClear={() => apply(filterFromUrl(new URLSearchParams(), today))} options={options.data} />
      {failed && <Alert severity="error">{errorText(failed)}</Alert>}
      <SummaryCards summary={summary.data} onDrill={openList} />
      <VolumeChart volume={volume.data} />
      <BreakdownTabs filters={filters} onDrill={openRow} />
      {list && <TicketListDialog key={JSON.stringify(list.params)} params={list.params} title={list.title} onClose={() => setList(null)} />}
    </Box>
  );
}
