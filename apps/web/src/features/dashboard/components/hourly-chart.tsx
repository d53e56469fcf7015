import { Paper, Typography } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { useTranslation } from "react-i18next";

/** Today's tickets per hour of the company's clock: 24 bars (spec §9). */
export function HourlyChart({ hourly }: { hourly: { hour: number; tickets: number }[] | undefined }) {
  const { t } = useTranslation();
  const slots = hourly ?? Array.from({ length: 24 }, (_, hour) => ({ hour, tickets: 0 }));
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }} data-testid="hourly-chart">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t("dashboard.chart.title")}
      </Typography>
      <BarChart
        height={280}
        loading={hourly === undefined}
        xAxis={[{ scaleType: "band", data: slots.map((s) => `${String(s.hour).padStart(2, "0")}h`), label: t("dashboard.chart.hour") }]}
        yAxis={[{ tickMinStep: 1, width: 40 }]}
        series={[{ data: slots.map((s) => s.tickets), label: t("dashboard.chart.tickets"), color: "#2576d2" }]}
        hideLegend
        margin={{ left: 0, right: 8 }}
      />
    </Paper>
  );
}
