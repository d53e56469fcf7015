import { Paper, Typography, useTheme } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { useTranslation } from "react-i18next";
import type { ReportVolume } from "@atende/shared";

const label = (unit: ReportVolume["unit"], key: string) => (unit === "hour" ? `${key}h` : `${key.slice(8, 10)}/${key.slice(5, 7)}`);

/** Tickets created and resolved per day (per hour when the range is one day), on the company's clock. */
export function VolumeChart({ volume }: { volume: ReportVolume | undefined }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const buckets = volume?.buckets ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }} data-testid="volume-chart">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t("reports.chart.title")}
      </Typography>
      <BarChart
        height={280}
        loading={volume === undefined}
        xAxis={[{ scaleType: "band", data: buckets.map((b) => label(volume!.unit, b.key)), label: t(volume?.unit === "hour" ? "reports.chart.hour" : "reports.chart.day") }]}
        yAxis={[{ tickMinStep: 1, width: 40 }]}
        series={[
          { data: buckets.map((b) => b.created), label: t("reports.chart.created"), color: theme.palette.primary.main },
          { data: buckets.map((b) => b.resolved), label: t("reports.chart.resolved"), color: theme.palette.success.main },
        ]}
        margin={{ left: 0, right: 8 }}
      />
    </Paper>
  );
}
