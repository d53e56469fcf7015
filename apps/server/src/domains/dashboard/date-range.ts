import { dateToZonedLocal, zonedLocalToDate, type DashboardQuery } from "@atende/shared";

/** The days a dashboard request covers, as instants: [start, end) in the company's time zone. */
export interface DashboardRange {
  dateFrom: string;
  dateTo: string;
  timeZone: string;
  start: Date;
  end: Date;
  /** Today in the company's zone, for the hourly chart. */
  todayStart: Date;
  todayEnd: Date;
}

/** yyyy-MM-dd plus n days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const midnight = (day: string, timeZone: string) => zonedLocalToDate(`${day}T00:00`, timeZone);

/**
 * `days` = N: today and the N−1 days before it; `date_from`/`date_to`: both days included; neither:
 * the first of the month to today (spec §9). Days are read in the company's zone, so a company in
 * Manaus and one in São Paulo asking for the same day cover instants an hour apart.
 */
export function dashboardRange(query: DashboardQuery, timeZone: string, now = new Date()): DashboardRange {
  const today = dateToZonedLocal(now, timeZone).slice(0, 10);
  let dateFrom: string;
  let dateTo: string;
  if (query.date_from && query.date_to) {
    dateFrom = query.date_from;
    dateTo = query.date_to;
  } else if (query.days !== undefined) {
    dateFrom = addDays(today, -(query.days - 1));
    dateTo = today;
  } else {
    dateFrom = `${today.slice(0, 8)}01`;
    dateTo = today;
  }
  return {
    dateFrom,
    dateTo,
    timeZone,
    start: midnight(dateFrom, timeZone),
    end: midnight(addDays(dateTo, 1), timeZone),
    todayStart: midnight(today, timeZone),
    todayEnd: midnight(addDays(today, 1), timeZone),
  };
}
