import { dateToZonedLocal } from "@atende/shared";

/** Minutes after midnight of `now` on the wall clock of `timeZone`. */
export function zonedMinute(now: Date, timeZone: string): number {
  const local = dateToZonedLocal(now, timeZone); // yyyy-MM-ddTHH:mm
  return Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));
}

/**
 * The daily sending window (start_hour..end_hour, company's zone): open from the start minute up to,
 * not including, the end minute; a start after the end spans midnight (22:00-06:00). No window: always open.
 */
export function sendingWindowOpen(now: Date, timeZone: string, start: number | null, end: number | null): boolean {
  if (start === null || end === null) return true;
  const m = zonedMinute(now, timeZone);
  return start < end ? m >= start && m < end : m >= start || m < end;
}
