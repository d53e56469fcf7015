import { isOnline, LIMITS, type DashboardQuery, type DashboardResponse } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { dashboardRange } from "./date-range.js";
import * as repo from "./repository.js";
import * as rollup from "./rollup.js";

/** GET /dashboard: the company's counters, attendants, tags and today's hourly chart (definitions in docs/architecture.md). */
export async function loadDashboard(ctx: AppContext, actor: RequestActor, query: DashboardQuery): Promise<DashboardResponse> {
  const companyId = actor.companyId;
  const { time_zone: timeZone } = await repo.timeZoneOf(ctx.sql, companyId);
  const range = dashboardRange(query, timeZone);
  const tags = query.idTags?.length ? query.idTags : null;
  const scope = { companyId, start: range.start, end: range.end, tags };
  const today = { ...scope, start: range.todayStart, end: range.todayEnd };
  const days = { from: range.dateFrom, to: range.dateTo };

  // The range's figures come from the daily roll-up (its pending changes folded in first); under a tag
  // filter from the roll-up of the tickets' tag sets ("any of these tags": a ticket with two counts once).
  await rollup.compact(ctx.sql, companyId);
  const [load, figures, newContacts, tagRows, hours] = await Promise.all([
    rollup.currentLoad(ctx.sql, companyId, tags),
    rollup.rangeFigures(ctx.sql, companyId, days, tags),
    rollup.leads(ctx.sql, companyId, days, tags),
    rollup.tagCounts(ctx.sql, companyId, days),
    repo.hourly(ctx.sql, today, timeZone),
  ]);
  const now = new Date();
  const perHour = new Map(hours.map((h) => [h.hour, h.tickets]));
  return {
    counters: {
      supportPending: load.pending,
      supportHappening: load.happening,
      supportFinished: figures.finished,
      leads: newContacts.n,
      avgSupportTime: figures.avg_support,
      avgWaitTime: figures.avg_wait,
    },
    attendants: figures.attendants.map((p) => ({
      id: p.id,
      name: p.name,
      tickets: p.tickets,
      count_ativo: p.count_ativo,
      count_receptivo: p.count_receptivo,
      avgSupportTime: p.avg_support,
      online: isOnline({ online: p.online_flag, lastSeenAt: p.last_seen_at ? new Date(p.last_seen_at) : null }, now),
    })),
    tags: tagRows,
    hourly: Array.from({ length: LIMITS.hourlyBuckets }, (_, hour) => ({ hour, tickets: perHour.get(hour) ?? 0 })),
    range: { dateFrom: range.dateFrom, dateTo: range.dateTo, timeZone },
  };
}
