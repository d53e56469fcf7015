import { LIMITS, type TicketsPage, type ticketsQuery } from "@atende/shared";
import type { z } from "zod";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { likeEscape } from "../contacts/repository.js";
import { presentTicket } from "./presenter.js";
import { ticketsByIds } from "./repository.js";
import { visibilityFor, visibilitySql } from "./visibility.js";

type Query = z.output<typeof ticketsQuery>;

/** Shortest search that uses the trigram index on message text; shorter ones search contacts only. */
export const MESSAGE_SEARCH_MIN_CHARS = 3;

/**
 * GET /tickets: one indexed walk over (company, status, updated_at DESC, id DESC) with the filters
 * as conditions, 40 per page (offset paging; the 41st row tells hasMore). searchParam: see
 * searchTickets.
 */
export async function listTickets(ctx: AppContext, actor: RequestActor, q: Query): Promise<TicketsPage> {
  const v = await visibilityFor(ctx.sql, actor);
  const params: unknown[] = [actor.companyId];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = ["t.company_id = $1"];
  const showAll = q.showAll === true && v.canShowAll;
  where.push(visibilitySql(v, params, showAll));
  if (q.status) where.push(`t.status = ${p(q.status)}`);
  if (q.queueIds?.length) {
    where.push(q.includeNoQueue === false ? `t.queue_id = ANY(${p(q.queueIds)}::int[])` : `(t.queue_id = ANY(${p(q.queueIds)}::int[]) OR t.queue_id IS NULL)`);
  }
  if (q.users?.length) where.push(`t.user_id = ANY(${p(q.users)}::int[])`);
  if (q.tags?.length) {
    const tags = [...new Set(q.tags)];
    where.push(
      `(SELECT count(*) FROM ticket_tags tt WHERE tt.ticket_id = t.id AND tt.tag_id = ANY(${p(tags)}::int[])) = ${tags.length}`,
    );
  }
  if (q.origins?.length === 1) where.push(q.origins[0] === "proactive" ? "t.origin_from_me" : "NOT t.origin_from_me");
  if (q.date) where.push(`t.created_at >= ${p(q.date)}::date AND t.created_at < ${p(q.date)}::date + 1`);
  if (q.updatedAt) where.push(`t.updated_at >= ${p(q.updatedAt)}::date AND t.updated_at < ${p(q.updatedAt)}::date + 1`);
  if (q.withUnreadMessages) where.push("t.unread_messages > 0");

  const pageSize = LIMITS.ticketsPerPage;
  const offset = (q.pageNumber - 1) * pageSize;
  const baseWhere = where.join(" AND ");
  const search = q.searchParam.trim().toLowerCase();

  let ids: { id: number }[];
  if (!search) {
    ids = await ctx.sql.many<{ id: number }>(
      `SELECT t.id FROM tickets t WHERE ${baseWhere} ORDER BY t.updated_at DESC, t.id DESC LIMIT ${pageSize + 1} OFFSET ${offset}`,
      params,
    );
  } else {
    ids = await searchTickets(ctx, params, baseWhere, search, offset, pageSize + 1);
  }
  const hasMore = ids.length > pageSize;
  const pageIds = ids.slice(0, pageSize).map((r) => r.id);
  // The page's details and the (capped) count are independent: two pool connections at once.
  const [rows, count] = await Promise.all([
    ticketsByIds(ctx.sql, actor.companyId, pageIds),
    search || q.pageNumber !== 1
      ? null
      : hasMore
        ? ctx.sql
            .one<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM tickets t WHERE ${baseWhere} LIMIT ${COUNT_CAP}) x`, params)
            .then((r) => r.n)
        : pageIds.length,
  ]);
  return { tickets: rows.map(presentTicket), hasMore, count };
}

/** How many tickets the walk plan may test before the index plan takes over (tests lower it). */
export const searchTuning = { walkMinBudget: 1000, walkPerRow: 10, rareBelow: 1000 };

/** `count` stops at this many (a badge shows "1000+"); counting 20k open tickets on every list call is not worth it. */
export const COUNT_CAP = 1000;

/**
 * searchParam: the contact's name or number, or any message's text (trigram indexes). Two plans:
 * 1. walk the filtered tickets newest first and test each one's messages (index on ticket_id),
 *    at most `budget` tickets: fast when the text is common (the page fills after a few hundred);
 * 2. find the matching messages through the trigram index and keep their tickets: fast when the
 *    text is rare. Used at once when the planner expects few matching messages, and whenever the
 *    walk could not fill the page within its budget.
 * Either way a ticket appears once however many of its messages match, so pages are always full.
 */
async function searchTickets(
  ctx: AppContext,
  baseParams: unknown[],
  baseWhere: string,
  search: string,
  offset: number,
  limit: number,
): Promise<{ id: number }[]> {
  const params = [...baseParams];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const like = p(`%${likeEscape(search)}%`);
  const digits = search.replace(/\D/g, "");
  const contactMatch =
    digits.length >= 3 && digits === search.replace(/[\s()+-]/g, "")
      ? `(lower(c2.name) LIKE ${like} OR lower(c2.number) LIKE ${p(`%${digits}%`)})`
      : `lower(c2.name) LIKE ${like}`;
  const contactIds = `(SELECT c2.id FROM contacts c2 WHERE c2.company_id = $1 AND ${contactMatch})`;
  const withMessages = search.length >= MESSAGE_SEARCH_MIN_CHARS;

  // One set of matching ticket ids (a semi-join, not an OR of subqueries, so few matches stay cheap).
  const byMessage = withMessages ? `SELECT m.ticket_id FROM messages m WHERE m.company_id = $1 AND lower(m.body) LIKE ${like} UNION ` : "";
  const indexPlan = () =>
    ctx.sql.many<{ id: number }>(
      `SELECT t.id FROM tickets t
        WHERE ${baseWhere} AND t.id IN (${byMessage}SELECT t2.id FROM tickets t2 WHERE t2.company_id = $1 AND t2.contact_id IN ${contactIds})
        ORDER BY t.updated_at DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
  // Rare text (the planner's estimates of matching messages and contacts, from the column
  // statistics, without running anything): the index plan at once.
  const pattern = `%${likeEscape(search)}%`;
  const expected =
    (withMessages ? await estimatedRows(ctx, "SELECT 1 FROM messages m WHERE m.company_id = $1 AND lower(m.body) LIKE $2", [baseParams[0], pattern]) : 0) +
    (await estimatedRows(ctx, "SELECT 1 FROM contacts c WHERE c.company_id = $1 AND lower(c.name) LIKE $2", [baseParams[0], pattern]));
  if (expected < searchTuning.rareBelow) return indexPlan();

  const budget = Math.max(searchTuning.walkMinBudget, (offset + limit) * searchTuning.walkPerRow);
  const messageTest = withMessages
    ? ` OR (SELECT 1 FROM messages m WHERE m.ticket_id = w.id AND m.company_id = $1 AND lower(m.body) LIKE ${like} LIMIT 1) IS NOT NULL`
    : "";
  const walked = await ctx.sql.many<{ id: number }>(
    `SELECT w.id FROM (
       SELECT t.id, t.updated_at, t.contact_id FROM tickets t WHERE ${baseWhere}
        ORDER BY t.updated_at DESC, t.id DESC LIMIT ${budget}) w
      WHERE w.contact_id IN ${contactIds}${messageTest}
      ORDER BY w.updated_at DESC, w.id DESC LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  if (walked.length === limit) return walked;
  const total = await ctx.sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM tickets t WHERE ${baseWhere} LIMIT ${budget}) x`, baseParams);
  if (total.n < budget) return walked; // the walk saw every candidate ticket: complete

  return indexPlan();
}

/** The planner's row estimate for a query (planning only, no execution). */
async function estimatedRows(ctx: AppContext, query: string, params: unknown[]): Promise<number> {
  const row = await ctx.sql.one<{ "QUERY PLAN": { Plan: { "Plan Rows": number } }[] }>(`EXPLAIN (FORMAT JSON) ${query}`, params);
  return row["QUERY PLAN"][0]?.Plan["Plan Rows"] ?? 0;
}
