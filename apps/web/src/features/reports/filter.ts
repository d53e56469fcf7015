import { REPORT_DEFAULT_DAYS, REPORT_ORIGINS, TICKET_STATUSES, type ReportFilters } from "@atende/shared";

/** The report filters as they stand in the page's URL (?from=&to=&queue=&agent=&tag=&connection=&status=&origin=). */
export interface ReportFilter {
  dateFrom: string;
  dateTo: string;
  queue: string;
  agent: string;
  tag: string;
  connection: string;
  status: string;
  origin: string;
}

/** URL key of each filter field. */
const KEYS: Record<keyof ReportFilter, string> = {
  dateFrom: "from",
  dateTo: "to",
  queue: "queue",
  agent: "agent",
  tag: "tag",
  connection: "connection",
  status: "status",
  origin: "origin",
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID_OR_NONE = /^(none|[1-9]\d*)$/;

/** yyyy-MM-dd plus n days (calendar arithmetic). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The filter a URL describes; missing or malformed values fall back to the default (the last 7 days, no other filter). */
export function filterFromUrl(params: URLSearchParams, today: string): ReportFilter {
  const get = (k: keyof ReportFilter) => params.get(KEYS[k]) ?? "";
  const from = get("dateFrom");
  const to = get("dateTo");
  const datesOk = DAY.test(from) && DAY.test(to) && from <= to;
  const id = (k: keyof ReportFilter, allowNone = true) => {
    const v = get(k);
    return ID_OR_NONE.test(v) && (allowNone || v !== "none") ? v : "";
  };
  const status = get("status");
  const origin = get("origin");
  return {
    dateFrom: datesOk ? from : addDays(today, -(REPORT_DEFAULT_DAYS - 1)),
    dateTo: datesOk ? to : today,
    queue: id("queue"),
    agent: id("agent"),
    tag: id("tag", false),
    connection: id("connection"),
    status: (TICKET_STATUSES as readonly string[]).includes(status) ? status : "",
    origin: (REPORT_ORIGINS as readonly string[]).includes(origin) ? origin : "",
  };
}

/** The URL query of a filter (empty fields left out). */
export function filterToUrl(f: ReportFilter): URLSearchParams {
  const out = new URLSearchParams();
  for (const k of Object.keys(KEYS) as (keyof ReportFilter)[]) if (f[k]) out.set(KEYS[k], f[k]);
  return out;
}

const idParam = (v: string): number | "none" | undefined => (v === "" ? undefined : v === "none" ? "none" : Number(v));

/** The API query of a filter (GET /reports/...). */
export function apiFilters(f: ReportFilter): ReportFilters {
  return {
    date_from: f.dateFrom,
    date_to: f.dateTo,
    queueId: idParam(f.queue),
    userId: idParam(f.agent),
    tagId: f.tag ? Number(f.tag) : undefined,
    whatsappId: idParam(f.connection),
    status: (f.status || undefined) as ReportFilters["status"],
    origin: (f.origin || undefined) as ReportFilters["origin"],
  };
}

/** A duration in seconds as people read it: 45 s, 6 min, 1 h 05 min, 2 d 3 h; an em dash for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, "0")} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
