import type { DashboardParams } from "./api/dashboard";

/** The filter form: by dates or by a period of days (none: no filter), and tags. */
export interface DashboardFilter {
  type: "date" | "period";
  dateFrom: string;
  dateTo: string;
  /** A period of LIMITS.dashboardPeriods, or "" for none. */
  days: number | "";
  tagIds: number[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The request a filter stands for, or null when it sets no range ('Parametrize o filtro'). */
export function paramsOf(f: DashboardFilter): DashboardParams | null {
  if (f.type === "period") return f.days === "" ? null : { days: f.days, tagIds: f.tagIds };
  if (!DAY.test(f.dateFrom) || !DAY.test(f.dateTo)) return null;
  return { dateFrom: f.dateFrom, dateTo: f.dateTo, tagIds: f.tagIds };
}

/** The spec's default (§9): from the first of the month to today, `today` being yyyy-MM-dd in the company's zone. */
export function defaultFilter(today: string): DashboardFilter {
  return { type: "date", dateFrom: `${today.slice(0, 8)}01`, dateTo: today, days: "", tagIds: [] };
}

/** Minutes as the cards show them: "42 min", "1 h 05 min". */
export function formatMinutes(minutes: number): string {
  const total = Math.round(minutes);
  if (total < 60) return `${total} min`;
  return `${Math.floor(total / 60)} h ${String(total % 60).padStart(2, "0")} min`;
}
