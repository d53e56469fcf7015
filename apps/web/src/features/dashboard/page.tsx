import { useEffect, useState } from "react";
import { Alert, Box, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { LIMITS } from "@atende/shared";
import { PageHeading } from "../../components/page-heading";
import { formatInZone, useCompanyTimeZone } from "../../lib/time-zone";
import { errorText } from "../../lib/toast-error";
import { useDashboard, type DashboardParams } from "./api/dashboard";
import { AttendantsTable } from "./components/attendants-table";
import { CounterCards } from "./components/counter-cards";
import { DashboardFilters } from "./components/dashboard-filters";
import { HourlyChart } from "./components/hourly-chart";
import { defaultFilter, paramsOf, type DashboardFilter } from "./filter";

/** The dashboard (`/`, admins): counters, today's tickets per hour and the attendants for the filter applied. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const timeZone = useCompanyTimeZone();
  const [filter, setFilter] = useState<DashboardFilter>(() => defaultFilter(formatInZone(new Date(), timeZone, "yyyy-MM-dd")));
  const [applied, setApplied] = useState<DashboardParams | null>(null);
  const figures = useDashboard(applied);

  // spec §9: the first load comes 1 s after the page opens, with the default range
  useEffect(() => {
    const timer = setTimeout(() => setApplied((current) => current ?? paramsOf(filter)), LIMITS.dashboardInitialLoadMs);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, with the filter the page opened with
  }, []);

  const data = applied ? figures.data : undefined;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, minWidth: 0 }}>
      <PageHeading title={t("dashboard.title")}>
        {data && (
          <Typography variant="body2" color="text.secondary" data-testid="dashboard-range">
            {t("dashboard.rangeShown", { from: formatDay(data.range.dateFrom), to: formatDay(data.range.dateTo) })}
          </Typography>
        )}
      </PageHeading>
      <DashboardFilters value={filter} onChange={setFilter} onApply={() => setApplied(paramsOf(filter))} tags={data?.tags ?? []} />
      {figures.isError && <Alert severity="error">{errorText(figures.error)}</Alert>}
      <CounterCards counters={data?.counters} />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "minmax(0, 1fr)", xl: "minmax(0, 1fr) minmax(0, 1fr)" } }}>
        <HourlyChart hourly={data?.hourly} />
        <AttendantsTable attendants={data?.attendants} />
      </Box>
    </Box>
  );
}

/** yyyy-MM-dd → dd/MM/yyyy (a calendar day, no zone to apply). */
function formatDay(day: string): string {
  const [y, m, d] = day.split("-");
  return `${d}/${m}/${y}`;
}
