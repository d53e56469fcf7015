import type React from "react";
import { Alert, Box, Button, Checkbox, Chip, FormControl, InputLabel, ListItemText, MenuItem, Paper, Select, TextField } from "@mui/material";
import FilterAltIcon from "@mui/icons-material/FilterAlt";
import { useTranslation } from "react-i18next";
import { LIMITS } from "@atende/shared";
import { DateField } from "../../../components/date-time-field";
import { paramsOf, type DashboardFilter } from "../filter";
import { colorChipSx } from "../../../lib/contrast";

interface Props {
  value: DashboardFilter;
  onChange(next: DashboardFilter): void;
  onApply(): void;
  tags: { id: number; name: string; color: string }[];
}

/** Filter type (dates or period), the dates or the period (or none), tags, and the Filter button (spec §2). */
export function DashboardFilters({ value, onChange, onApply, tags }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<DashboardFilter>) => onChange({ ...value, ...patch });
  const empty = paramsOf(value) === null;
  const field = { minWidth: 0 };
  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!empty) onApply();
  }
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={submit}>
      <Box sx={{ display: "grid", gap: 2, alignItems: "start", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "180px 1fr 1fr 1.5fr auto" } }}>
        <TextField select size="small" label={t("dashboard.filter.type")} value={value.type} onChange={(e) => set({ type: e.target.value as DashboardFilter["type"] })} sx={field} data-testid="filter-type">
          <MenuItem value="date">{t("dashboard.filter.byDate")}</MenuItem>
          <MenuItem value="period">{t("dashboard.filter.byPeriod")}</MenuItem>
        </TextField>
        {value.type === "date" ? (
          <>
            <DateField size="small" label={t("dashboard.filter.dateFrom")} value={value.dateFrom} onChange={(v) => set({ dateFrom: v })} name="dateFrom" />
            <DateField size="small" label={t("dashboard.filter.dateTo")} value={value.dateTo} onChange={(v) => set({ dateTo: v })} name="dateTo" />
          </>
        ) : (
          <TextField
            select
            size="small"
            label={t("dashboard.filter.period")}
            value={value.days === "" ? "none" : String(value.days)}
            onChange={(e) => set({ days: e.target.value === "none" ? "" : Number(e.target.value) })}
            sx={{ ...field, gridColumn: { sm: "span 1", lg: "span 2" } }}
            data-testid="filter-period"
          >
            <MenuItem value="none">{t("dashboard.filter.noPeriod")}</MenuItem>
            {LIMITS.dashboardPeriods.map((d) => (
              <MenuItem key={d} value={String(d)}>
                {t("dashboard.filter.lastDays", { count: d })}
              </MenuItem>
            ))}
          </TextField>
        )}
        <FormControl size="small" sx={field}>
          <InputLabel id="dashboard-tags-label">{t("dashboard.filter.tags")}</InputLabel>
          <Select
            multiple
            labelId="dashboard-tags-label"
            label={t("dashboard.filter.tags")}
            value={value.tagIds}
            onChange={(e) => set({ tagIds: typeof e.target.value === "string" ? [] : e.target.value })}
            data-testid="filter-tags"
            renderValue={(ids) => (
              <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap" }}>
                {ids.map((id) => {
                  const tag = tags.find((x) => x.id === id);
                  return <Chip key={id} size="small" label={tag?.name ?? id} sx={{ ...colorChipSx(tag?.color), height: 20 }} />;
                })}
              </Box>
            )}
          >
            {tags.map((tag) => (
              <MenuItem key={tag.id} value={tag.id}>
                <Checkbox size="small" checked={value.tagIds.includes(tag.id)} />
                <ListItemText primary={tag.name} />
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Button type="submit" variant="contained" startIcon={<FilterAltIcon />} disabled={empty} sx={{ height: 40 }}>
          {t("dashboard.filter.apply")}
        </Button>
      </Box>
      {empty && (
        <Alert severity="info" sx={{ mt: 2 }} data-testid="filter-needed">
          {t("dashboard.filter.needed")}
        </Alert>
      )}
    </Paper>
  );
}
