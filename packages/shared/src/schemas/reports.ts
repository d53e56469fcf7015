import { z } from "zod";
import { TICKET_STATUSES } from "../enums.js";
import { calendarDay, DASHBOARD_MAX_DAYS } from "./dashboard.js";

/** Rows per page of a report's ticket list (the drill-down). */
export const REPORT_PAGE_SIZE = 40;
/** Days a report covers when no dates are given: today and the 6 days before (company time zone). */
export const REPORT_DEFAULT_DAYS = 7;

const id = z.coerce.number().int().positive().max(2_147_483_647);
/** An id, or "none" for cycles without one (no agent, no queue, no connection). */
const idOrNone = z.union([z.literal("none"), id]);

export const REPORT_ORIGINS = ["ativo", "receptivo"] as const;

const filterFields = {
  date_from: calendarDay.optional().describe("First day (company time zone), with date_to; default: the last 7 days"),
  date_to: calendarDay.optional().describe("Last day (company time zone), included"),
  queueId: idOrNone.optional().describe("Figures of the intervals held in this queue (a transferred ticket counts in each queue for its own interval); none: without a queue"),
  userId: idOrNone.optional().describe("Figures of the intervals this agent held; none: intervals nobody accepted"),
  tagId: id.optional().describe("Tickets carrying this tag"),
  whatsappId: idOrNone.optional().describe("Intervals on this connection"),
  status: z.enum(TICKET_STATUSES).optional().describe("The ticket's current status"),
  origin: z.enum(REPORT_ORIGINS).optional().describe("ativo: started by an agent; receptivo: by the customer"),
};

function checkRange(q: { date_from?: string; date_to?: string }, ctx: z.RefinementCtx) {
  if (!!q.date_from !== !!q.date_to) ctx.addIssue({ code: "custom", path: [q.date_from ? "date_to" : "date_from"], message: "Required" });
  if (q.date_from && q.date_to) {
    const span = (Date.parse(q.date_to) - Date.parse(q.date_from)) / 86_400_000 + 1;
    if (span < 1) ctx.addIssue({ code: "custom", path: ["date_to"], message: "date_to is before date_from" });
    else if (span > DASHBOARD_MAX_DAYS) ctx.addIssue({ code: "custom", path: ["date_to"], message: `At most ${DASHBOARD_MAX_DAYS} days` });
  }
}

/** Filters every report takes (all optional; they combine with AND). */
export const reportFilters = z.object(filterFields).strict().superRefine(checkRange);
export type ReportFilters = z.infer<typeof reportFilters>;

export const REPORT_DIMENSIONS = ["agent", "queue", "tag", "connection"] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];
export const reportBreakdownQuery = z
  .object({ ...filterFields, by: z.enum(REPORT_DIMENSIONS).describe("Group the figures by agent, queue, tag or connection") })
  .strict()
  .superRefine(checkRange);
export type ReportBreakdownQuery = z.infer<typeof reportBreakdownQuery>;

/**
 * Which cycles a ticket list shows, each read on its own event: created (entered in the range),
 * resolved (finished in the range), firstResponse (first agent answer in the range), csat (rated in
 * the range; `rating` keeps one answer).
 */
export const REPORT_METRICS = ["created", "resolved", "firstResponse", "csat"] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];
const listFields = {
  ...filterFields,
  metric: z.enum(REPORT_METRICS).default("created"),
  rating: z.coerce.number().int().min(1).max(5).optional().describe("With metric csat: only this answer"),
};
function checkRating(q: { metric?: ReportMetric; rating?: number }, ctx: z.RefinementCtx) {
  if (q.rating !== undefined && q.metric !== "csat") ctx.addIssue({ code: "custom", path: ["rating"], message: "rating needs metric=csat" });
}
export const reportTicketsCsvQuery = z
  .object({ ...listFields, lang: z.enum(["pt", "en", "es"]).default("pt").describe("Language of the header") })
  .strict()
  .superRefine((q, ctx) => (checkRange(q, ctx), checkRating(q, ctx)));
export type ReportTicketsCsvQuery = z.infer<typeof reportTicketsCsvQuery>;
export const reportTicketsQuery = z
  .object({ ...listFields, page: z.coerce.number().int().min(1).max(100_000).default(1) })
  .strict()
  .superRefine((q, ctx) => (checkRange(q, ctx), checkRating(q, ctx)));
export type ReportTicketsQuery = z.infer<typeof reportTicketsQuery>;

const seconds = z.number().nullable().describe("Seconds, whole; null when nothing was measured");
const timing = z.object({ count: z.number(), median: seconds, p90: seconds });
const range = z.object({ dateFrom: z.string(), dateTo: z.string(), timeZone: z.string() });

export const reportSummary = z.object({
  created: z.number().describe("Tickets created in the range, each once (a reopening or a transfer is not a new ticket)"),
  resolved: z.number().describe("Closes in the range (a ticket closed, reopened and closed again counts twice)"),
  firstResponse: timing.describe("Each holder's first answer: from when the ticket reached them (creation, reopening or transfer) to their first message, over the intervals first answered in the range"),
  resolution: timing.describe("Cycle start (creation or reopening) → close, over the closes in the range; credited to the agent and queue that closed it"),
  csat: z.object({
    count: z.number().describe("Answers given in the range"),
    average: z.number().nullable().describe("Mean of the 1-5 answers, two decimals"),
    satisfiedPercent: z.number().nullable().describe("Share of answers 4 or 5, one decimal"),
    distribution: z.array(z.number()).length(5).describe("Answers 1..5"),
  }),
  range,
});
export type ReportSummary = z.infer<typeof reportSummary>;

export const reportVolume = z.object({
  unit: z.enum(["day", "hour"]).describe("hour when the range is one day"),
  buckets: z.array(z.object({ key: z.string().describe("yyyy-MM-dd or HH"), created: z.number(), resolved: z.number() })),
  range,
});
export type ReportVolume = z.infer<typeof reportVolume>;

export const reportBreakdownRow = z.object({
  id: z.number().nullable().describe("null: intervals without an agent, queue or connection"),
  name: z.string().nullable(),
  created: z.number(),
  resolved: z.number(),
  firstResponseMedian: seconds,
  resolutionMedian: seconds,
  csatAverage: z.number().nullable(),
  csatCount: z.number(),
});
export type ReportBreakdownRow = z.infer<typeof reportBreakdownRow>;
export const reportBreakdown = z.object({ by: z.enum(REPORT_DIMENSIONS), rows: z.array(reportBreakdownRow), range });
export type ReportBreakdown = z.infer<typeof reportBreakdown>;

export const reportTicket = z.object({
  cycleId: z.number(),
  ticketId: z.number(),
  uuid: z.string(),
  contactName: z.string(),
  status: z.enum(TICKET_STATUSES),
  queueName: z.string().nullable(),
  userName: z.string().nullable(),
  connectionName: z.string().nullable(),
  origin: z.enum(REPORT_ORIGINS),
  queuedAt: z.string(),
  firstResponseAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  firstResponseSeconds: seconds,
  resolutionSeconds: seconds,
  rating: z.number().nullable(),
  messages: z.number().describe("The agents' messages sent while this agent and queue held the ticket"),
  heldSeconds: seconds.describe("Accepted → transferred on or closed: this agent's time with the ticket; null while held or never accepted"),
});
export type ReportTicket = z.infer<typeof reportTicket>;
export const reportTickets = z.object({ items: z.array(reportTicket), total: z.number(), page: z.number(), pageSize: z.number() });
export type ReportTickets = z.infer<typeof reportTickets>;

const option = z.object({ id: z.number(), name: z.string() });
export const reportOptions = z.object({ queues: z.array(option), users: z.array(option), tags: z.array(option), connections: z.array(option) });
export type ReportOptions = z.infer<typeof reportOptions>;
