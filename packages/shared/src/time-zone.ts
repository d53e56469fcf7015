import { TZDate } from "@date-fns/tz";

/**
 * Each company works in one IANA time zone (default America/Sao_Paulo): opening hours are read in it,
 * and a date and time an agent enters (a schedule's send time) is a wall-clock time in it.
 */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

let known: Set<string> | null = null;

/** IANA zone names this runtime knows (Intl.supportedValuesOf), plus UTC. */
export function timeZoneNames(): string[] {
  known ??= new Set(["UTC", ...Intl.supportedValuesOf("timeZone")]);
  return [...known];
}

export function isTimeZone(name: string): boolean {
  if (!known) timeZoneNames();
  return known!.has(name);
}

/** A wall-clock date and time without offset, as a date-time input gives it: 2026-11-24T09:30 (seconds optional). */
export const LOCAL_DATE_TIME = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** The instant a wall-clock time in `timeZone` stands for ("2026-11-24T09:30" in America/Manaus → 13:30Z). */
export function zonedLocalToDate(local: string, timeZone: string): Date {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) return new Date(NaN);
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  const z = new TZDate(y, mo - 1, d, h, mi, s, timeZone);
  // 2026-02-31 would roll over into March
  if (z.getFullYear() !== y || z.getMonth() !== mo - 1 || z.getDate() !== d) return new Date(NaN);
  return new Date(z.getTime());
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The wall-clock time of `date` in `timeZone`, as yyyy-MM-ddTHH:mm. */
export function dateToZonedLocal(date: Date, timeZone: string): string {
  const z = new TZDate(date.getTime(), timeZone);
  return `${z.getFullYear()}-${pad(z.getMonth() + 1)}-${pad(z.getDate())}T${pad(z.getHours())}:${pad(z.getMinutes())}`;
}
