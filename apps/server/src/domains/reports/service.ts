import {
  REPORT_DEFAULT_DAYS,
  REPORT_PAGE_SIZE,
  type ReportBreakdown,
  type ReportBreakdownQuery,
  type ReportFilters,
  type ReportSummary,
  type ReportTicket,
  type ReportTickets,
  type ReportTicketsQuery,
  type ReportVolume,
} from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { addDays, dashboardRange } from "../dashboard/date-range.js";
import { compact } from "../dashboard/rollup.js";
import * as repo from "./repository.js";

/** The filters alone (no range, no list or breakdown fields). */
export function filtersOf(q: ReportFilters): ReportFilters {
  const { queueId, userId, tagId, whatsappId, status, origin } = q;
  return { queueId, userId, tagId, whatsappId, status, origin };
}

/** The report's days in the company's zone: date_from..date_to, or the last 7 days (today included). */
export async function reportScope(ctx: AppContext, actor: RequestActor, q: ReportFilters) {
  const { time_zone: timeZone } = await ctx.sql.one<{ time_zone: string }>("SELECT time_zone FROM companies WHERE id = $1", [actor.companyId]);
  const range = dashboardRange(q.date_from && q.date_to ? { date_from: q.date_from, date_to: q.date_to } : { days: REPORT_DEFAULT_DAYS }, timeZone);
  const scope: repo.ReportScope = {
    companyId: actor.companyId,
    start: range.start,
    end: range.end,
    days: { from: range.dateFrom, to: range.dateTo },
    filters: filtersOf(q),
  };
  // the roll-up's pending changes folded in, so its figures include every committed change
  await compact(ctx.sql, actor.companyId);
  return { scope, range: { dateFrom: range.dateFrom, dateTo: range.dateTo, timeZone } };
}

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : null);

export async function loadSummary(ctx: AppContext, actor: RequestActor, q: ReportFilters): Promise<ReportSummary> {
  const { scope, range } = await reportScope(ctx, actor, q);
  const f = await repo.summary(ctx.sql, scope);
  return {
    created: f.created,
    resolved: f.resolved,
    firstResponse: { count: f.answered, median: f.first_response_median, p90: f.first_response_p90 },
    resolution: { count: f.resolved, median: f.resolution_median, p90: f.resolution_p90 },
    csat: { count: f.rated, average: f.csat_average, satisfiedPercent: pct(f.satisfied, f.rated), distribution: f.distribution },
    range,
  };
}

export async function loadVolume(ctx: AppContext, actor: RequestActor, q: ReportFilters): Promise<ReportVolume> {
  const { scope, range } = await reportScope(ctx, actor, q);
  const unit = range.dateFrom === range.dateTo ? "hour" : "day";
  const rows = await repo.volume(ctx.sql, scope, range.timeZone, unit);
  const keys: string[] = [];
  if (unit === "hour") for (let h = 0; h < 24; h++) keys.push(String(h).padStart(2, "0"));
  else for (let d = range.dateFrom; d <= range.dateTo; d = addDays(d, 1)) keys.push(d);
  const count = (kind: string, key: string) => rows.find((r) => r.kind === kind && r.key === key)?.n ?? 0;
  return { unit, buckets: keys.map((key) => ({ key, created: count("created", key), resolved: count("resolved", key) })), range };
}

export async function loadBreakdown(ctx: AppContext, actor: RequestActor, q: ReportBreakdownQuery): Promise<ReportBreakdown> {
  const { scope, range } = await reportScope(ctx, actor, q);
  const rows = await repo.breakdown(ctx.sql, scope, q.by);
  return {
    by: q.by,
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      created: r.created,
      resolved: r.resolved,
      firstResponseMedian: r.first_response_median,
      resolutionMedian: r.resolution_median,
      csatAverage: r.csat_average,
      csatCount: r.rated,
    })),
    range,
  };
}

export function presentTicket(r: repo.TicketRow): ReportTicket {
  return {
    cycleId: r.cycle_id,
    ticketId: r.ticket_id,
    uuid: r.uuid,
    contactName: r.contact_name,
    status: r.status,
    queueName: r.queue_name,
    userName: r.user_name,
    connectionName: r.connection_name,
    origin: r.origin_from_me ? "ativo" : "receptivo",
    queuedAt: r.queued_at.toISOString(),
    firstResponseAt: r.first_response_at?.toISOString() ?? null,
    finishedAt: r.finished_at?.toISOString() ?? null,
    firstResponseSeconds: r.first_response_seconds,
    resolutionSeconds: r.resolution_seconds,
    rating: r.rating,
    messages: r.messages,
    heldSeconds: r.held_seconds,
  };
}

export async function listScope(ctx: AppContext, actor: RequestActor, q: ReportFilters & { metric: repo.ListScope["metric"]; rating?: number }) {
  const { scope, range } = await reportScope(ctx, actor, q);
  return { scope: { ...scope, metric: q.metric, rating: q.rating } satisfies repo.ListScope, range };
}

export async function loadTickets(ctx: AppContext, actor: RequestActor, q: ReportTicketsQuery): Promise<ReportTickets> {
  const { scope } = await listScope(ctx, actor, q);
  const [total, rows] = await Promise.all([
    repo.countTickets(ctx.sql, scope),
    repo.ticketPage(ctx.sql, scope, REPORT_PAGE_SIZE, (q.page - 1) * REPORT_PAGE_SIZE),
  ]);
  return { items: rows.map(presentTicket), total: total.n, page: q.page, pageSize: REPORT_PAGE_SIZE };
}
