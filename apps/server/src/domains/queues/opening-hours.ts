/**
 * Opening hours of a company (setting scheduleType=company) or a queue (scheduleType=queue), as used
 * by inbound routing to decide between the greeting and the out-of-hours message, read in the company's
 * time zone (companies.time_zone).
 *
 * Rules (documented in docs/api.md):
 * - no schedule list at all (empty array) → always open: nothing has been configured;
 * - the day of `date` (in `timezone`) has no entry, or an entry with an empty start or end → closed;
 * - start equal to end (the default Sunday 00:00-00:00) → closed all day;
 * - start before end → open from start (inclusive) to end (exclusive); an end of 23:59 covers the whole last minute;
 * - start after end (e.g. 22:00-06:00) → open overnight: from start to midnight and from midnight to end.
 */
import { DEFAULT_TIME_ZONE } from "@atende/shared";

export interface OpeningHoursEntry {
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

export const DEFAULT_TIMEZONE = DEFAULT_TIME_ZONE;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: timezone, weekday: "long", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    formatters.set(timezone, f);
  }
  return f;
}

/** The weekday (english, lower case) and the seconds since local midnight of `date` in `timezone`. */
export function localTime(date: Date, timezone = DEFAULT_TIMEZONE): { weekdayEn: string; seconds: number } {
  const parts = Object.fromEntries(formatter(timezone).formatToParts(date).map((p) => [p.type, p.value]));
  return {
    weekdayEn: String(parts.weekday).toLowerCase(),
    seconds: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second),
  };
}

function toSeconds(hhmm: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return null;
  return h * 3600 + min * 60;
}

export function isOpen(schedules: readonly OpeningHoursEntry[] | null | undefined, date: Date = new Date(), timezone = DEFAULT_TIMEZONE): boolean {
  if (!schedules || schedules.length === 0) return true;
  const now = localTime(date, timezone);
  const entry = schedules.find((s) => s.weekdayEn.toLowerCase() === now.weekdayEn);
  if (!entry) return false;
  const start = toSeconds(entry.startTime);
  let end = toSeconds(entry.endTime);
  if (start === null || end === null || start === end) return false;
  if (end === 23 * 3600 + 59 * 60) end = 24 * 3600;
  if (start < end) return now.seconds >= start && now.seconds < end;
  return now.seconds >= start || now.seconds < end;
}
