import { Box, Button, MenuItem, Paper, TextField } from "@mui/material";
import FilterAltOffIcon from "@mui/icons-material/FilterAltOff";
import { useTranslation } from "react-i18next";
import { REPORT_ORIGINS, TICKET_STATUSES, type ReportOptions } from "@atende/shared";
import { DateField } from "../../../components/date-time-field";
import type { ReportFilter } from "../filter";

interface Props {
  value: ReportFilter;
  onChange(next: ReportFilter): void;
  onClear(): void;
  options: ReportOptions | undefined;
}

type Choice = { value: string; label: string };

/** Period, queue, agent, tag, connection, status and origin; every change applies at once (and goes to the URL). */
export function ReportFilters({ value, onChange, onClear, options }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<ReportFilter>) => onChange({ ...value, ...patch });
  const none = { value: "none", label: t("reports.filter.none") };
  const ids = (list: { id: number; name: string }[] | undefined): Choice[] => (list ?? []).map((o) => ({ value: String(o.id), label: o.name }));
  const select = (key: keyof ReportFilter, choices: Choice[]) => (
    <TextField
      select
      size="small"
      label={t(`reports.filter.${key}`)}
      value={choices.some((c) => c.value === value[key]) ? value[key] : ""}
      onChange={(e) => set({ [key]: e.target.value })}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      data-testid={`report-filter-${key}`}
      sx={{ minWidth: 0 }}
    >
      <MenuItem value="">{t("reports.filter.all")}</MenuItem>
      {choices.map((c) => (
        <MenuItem key={c.value} value={c.value}>
          {c.label}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Box sx={{ display: "grid", gap: 2, alignItems: "start", gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, minmax(0, 1fr))", xl: "repeat(8, minmax(0, 1fr)) auto" } }}>
        <DateField size="small" label={t("reports.filter.dateFrom")} value={value.dateFrom} onChange={(v) => v && v <= value.dateTo && set({ dateFrom: v })} name="dateFrom" />
        <DateField size="small" label={t("reports.filter.dateTo")} value={value.dateTo} onChange={(v) => v && v >= value.dateFrom && set({ dateTo: v })} name="dateTo" />
        {select("queue", [...ids(options?.queues), none])}
        {select("agent", [...ids(options?.users), none])}
        {select("tag", ids(options?.tags))}
        {select("connection", [...ids(options?.connections), none])}
        {select("status", TICKET_STATUSES.map((s) => ({ value: s, label: t(`reports.filter.statuses.${s}`) })))}
        {select("origin", REPORT_ORIGINS.map((o) => ({ value: o, label: t(`reports.filter.origins.${o}`) })))}
        <Button onClick={onClear} startIcon={<FilterAltOffIcon />} sx={{ gridColumn: { xs: "span 2", md: "-2 / -1", xl: "auto" }, justifySelf: { md: "end" }, whiteSpace: "nowrap", mt: { xl: 0.25 } }}>
          {t("reports.filter.clear")}
        </Button>
      </Box>
    </Paper>
  );
}
