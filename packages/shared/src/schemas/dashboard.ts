import { z } from "zod";
import { LIMITS } from "../limits.js";

/** A calendar day as yyyy-MM-dd, read in the company's time zone. */
export const calendarDay = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "yyyy-MM-dd")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, "Invalid date");

/** Longest range one request may ask for (a year and a day: a leap year's 366 days). */
export const DASHBOARD_MAX_DAYS = 366;

/**
 * Tag ids as the spec's front end sends them: a JSON array ("[1,2]"), a comma list ("1,2"), or the
 * key repeated (?idTags=1&idTags=2).
 */
const tagIds = z.preprocess((raw) => {
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => {
    if (typeof v !== "string") return [v];
    const s = v.trim();
    if (s === "") return [];
    // a JSON array of numbers; anything else that looks like one is kept whole, for the number check to refuse
    if (s.startsWith("[")) return /^\[\s*\d+(\s*,\s*\d+)*\s*\]$/.test(s) ? s.slice(1, -1).split(",").map((p) => p.trim()) : [s];
    return s.split(",").map((p) => p.trim());
  });
  return parts.map((p) => (typeof p === "string" && /^\d+$/.test(p) ? Number(p) : p));
}, z.array(z.number().int().positive()).max(200));

/**
 * GET /dashboard query (spec 1-core §7): `days` (the last N days, today included) or `date_from` and
 * `date_to` (both days included), never both; neither means the first of the month to today.
 */
export const dashboardQuery = z
  .object({
    days: z.coerce.number().int().min(1).max(DASHBOARD_MAX_DAYS).optional().describe("The last N days, today included"),
    date_from: calendarDay.optional().describe("First day (company time zone), with date_to"),
    date_to: calendarDay.optional().describe("Last day (company time zone), included"),
    idTags: tagIds.optional().describe("Only tickets carrying at least one of these tags"),
  })
  .superRefine((q, ctx) => {
    if (q.days !== undefined && (q.date_from || q.date_to)) {
      ctx.addIssue({ code: "custom", path: ["days"], message: "Use days or date_from/date_to, not both" });
    }
    if (!!q.date_from !== !!q.date_to) {
      ctx.addIssue({ code: "custom", path: [q.date_from ? "date_to" : "date_from"], message: "Required" });
    }
    if (q.date_from && q.date_to) {
      const span = (Date.parse(q.date_to) - Date.parse(q.date_from)) / 86_400_000 + 1;
      if (span < 1) ctx.addIssue({ code: "custom", path: ["date_to"], message: "date_to is before date_from" });
      else if (span > DASHBOARD_MAX_DAYS) ctx.addIssue({ code: "custom", path: ["date_to"], message: `At most ${DASHBOARD_MAX_DAYS} days` });
    }
  });
export type DashboardQuery = z.infer<typeof dashboardQuery>;

const minutes = z.number().describe("Minutes, one decimal; 0 when nothing was measured");

export const dashboardCounters = z.object({
  supportPending: z.number().describe("Tickets waiting for an agent now (status pending)"),
  supportHappening: z.number().describe("Tickets being handled now (status open or paused)"),
  supportFinished: z.number().describe("Tickets closed in the range (each close)"),
  leads: z.number().describe("Contacts created in the range"),
  avgSupportTime: minutes.describe("Time an agent held a ticket (accepted → transferred on or closed), over the intervals that ended in the range"),
  avgWaitTime: minutes.describe("Queued → accepted, over the intervals accepted in the range that waited (a transfer to a queue waits again there)"),
});
export type DashboardCounters = z.infer<typeof dashboardCounters>;

export const dashboardAttendant = z.object({
  id: z.number(),
  name: z.string(),
  tickets: z.number().describe("Intervals the agent accepted in the range (a ticket transferred between two agents counts for both)"),
  count_ativo: z.number().describe("Of those, started by an agent (proactive)"),
  count_receptivo: z.number().describe("Of those, started by the customer"),
  avgSupportTime: minutes.describe("The agent's own time holding tickets (accepted → transferred on or closed), over their intervals that ended in the range"),
  online: z.boolean().describe("The app open now: isOnline (presence.ts), the users page's rule"),
});
export type DashboardAttendant = z.infer<typeof dashboardAttendant>;

export const dashboardTag = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  tickets: z.number().describe("Tickets created in the range carrying the tag"),
});

export const dashboardHour = z.object({ hour: z.number().int().min(0).max(23), tickets: z.number() });

export const dashboardResponse = z.object({
  counters: dashboardCounters,
  attendants: z.array(dashboardAttendant),
  tags: z.array(dashboardTag),
  hourly: z.array(dashboardHour).length(LIMITS.hourlyBuckets).describe("Tickets created today per hour, company time zone"),
  range: z.object({ dateFrom: z.string(), dateTo: z.string(), timeZone: z.string() }),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
