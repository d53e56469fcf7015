import { Box, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { HHMM_PATTERN, TimeMaskField } from "./time-mask-field";
import { TimeZoneHint } from "./time-zone-hint";

export interface WeeklyHoursEntry {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

const WEEKDAY_INDEX: Record<string, number> = { monday: 0, tuesday: 1, wednesday: 2, thursday: 3, friday: 4, saturday: 5, sunday: 6 };

/** The weekday's name in the interface language (1 January 2024 was a Monday). */
function weekdayName(weekdayEn: string, language: string): string {
  const index = WEEKDAY_INDEX[weekdayEn];
  if (index === undefined) return weekdayEn;
  const name = new Intl.DateTimeFormat(language === "pt" ? "pt-BR" : language, { weekday: "long", timeZone: "UTC" }).format(
    new Date(Date.UTC(2024, 0, 1 + index)),
  );
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** True when every filled time is a valid HH:MM (an empty pair means closed). */
export function weeklyHoursValid(entries: WeeklyHoursEntry[]): boolean {
  return entries.every((e) => (e.startTime === "" || HHMM_PATTERN.test(e.startTime)) && (e.endTime === "" || HHMM_PATTERN.test(e.endTime)));
}

interface Props {
  value: WeeklyHoursEntry[];
  onChange(value: WeeklyHoursEntry[]): void;
  startLabel: string;
  endLabel: string;
  disabled?: boolean;
}

/** Seven weekday rows with HH:MM start and end times (queue and company opening hours). */
export function WeeklyHoursEditor({ value, onChange, startLabel, endLabel, disabled }: Props) {
  const { i18n } = useTranslation();
  const set = (index: number, field: "startTime" | "endTime", time: string) =>
    onChange(value.map((e, i) => (i === index ? { ...e, [field]: time } : e)));
  return (
    <Box sx={{ display: "grid", gap: 1.5 }}>
      <TimeZoneHint />
      {value.map((entry, index) => {
        const startBad = entry.startTime !== "" && !HHMM_PATTERN.test(entry.startTime);
        const endBad = entry.endTime !== "" && !HHMM_PATTERN.test(entry.endTime);
        return (
          <Box key={entry.weekdayEn} sx={{ display: "grid", gridTemplateColumns: { xs: "1fr 1fr", sm: "160px 1fr 1fr" }, gap: 1.5, alignItems: "center" }} data-weekday={entry.weekdayEn}>
            <Typography sx={{ gridColumn: { xs: "1 / -1", sm: "auto" }, fontWeight: 500 }}>{weekdayName(entry.weekdayEn, i18n.language)}</Typography>
            <TimeMaskField
              size="small"
              label={startLabel}
              value={entry.startTime}
              onChange={(v) => set(index, "startTime", v)}
              error={startBad}
              disabled={disabled}
              name={`${entry.weekdayEn}-start`}
            />
            <TimeMaskField
              size="small"
              label={endLabel}
              value={entry.endTime}
              onChange={(v) => set(index, "endTime", v)}
              error={endBad}
              disabled={disabled}
              name={`${entry.weekdayEn}-end`}
            />
          </Box>
        );
      })}
    </Box>
  );
}
