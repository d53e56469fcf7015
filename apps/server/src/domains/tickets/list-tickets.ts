import { LIMITS, type TicketsPage, type ticketsQuery } from "@atende/shared";
import type { z } from "zod";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { presentTicket } from "./presenter.js";
import { expectedMatches } from "./search-frequency.js";
import { TICKET_COLUMNS, TICKET_FIELDS, TICKET_JOINS, ticketsByIds, type TicketRow } from "./repository.js";
import { visibilityFor, visibilitySql } from "./visibility.js";

type Query = z.output<typeof ticketsQuery>;

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

  if (!search) return listPage(ctx, params, baseWhere, offset, q.pageNumber === 1);

  const ids = await searchTickets(ctx, params, baseWhere, search, offset, pageSize + 1);
  const hasMore = ids.length > pageSize;
  const rows = await ticketsByIds(ctx.sql, actor.companyId, ids.slice(0, pageSize).map((r) => r.id));
  return { tickets: rows.map(presentTicket), hasMore, count: null };
}

/**
 * A list page without search in one prepared statement (one round trip): the page's ids walked
 * through the (company, status, updated_at, id) index, their details joined, and on the first page
 * the capped count. Planned once per pooled connection and filter combination.
 */
async function listPage(ctx: AppContext, params: unknown[], baseWhere: string, offset: number, withCount: boolean): Promise<TicketsPage> {
  const pageSize = LIMITS.ticketsPerPage;
  const count = withCount ? `(SELECT count(*)::int FROM (SELECT 1 FROM tickets t WHERE ${baseWhere} LIMIT ${COUNT_CAP}) x)` : "NULL::int";
  const rows = await ctx.sql.many<TicketRow & { total_count: number | null }>(
    `WITH page AS (
       SELECT ${TICKET_FIELDS} FROM tickets t WHERE ${baseWhere}
        ORDER BY t.updated_at DESC, t.id DESC LIMIT ${pageSize + 1} OFFSET $${params.length + 1}
     )
     SELECT ${TICKET_COLUMNS}, ${count} AS total_count
       FROM page t ${TICKET_JOINS}
      ORDER BY t.updated_at DESC, t.id DESC`,
    [...params, offset],
    { prepare: true },
  );
  const hasMore = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  return { tickets: page.map(presentTicket), hasMore, count: withCount ? (rows[0]?.total_count ?? 0) : null };
}

/**
 * Above this many expected matches the search walks the tickets newest first (the matches are dense:
 * the page fills after a few hundred); below it, it collects every match through the index and sorts
 * them (cost bounded by the match count, wherever the matches sit). Tests move it.
 */
export const searchTuning = { walkAbove: 5_000 };

/** `count` stops at this many (a badge shows "999+"); counting 20k open tickets on every list call is not worth it. */
export const COUNT_CAP = 1000;

/** The words of a search: accents removed, lower case, at most 8. */
export function searchWords(search: string): string[] {
  return search
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/** The words as a tsquery text: each word a prefix ("pedid" finds "pedido"), all of them required. */
const tsquery = (words: string[]) => words.map((w) => `${w}:*`).join(" & ");

/**
 * searchParam: words (each word's start, accents ignored) of any of the ticket's messages or of its
 * contact's name or number, through the ticket's search words (migration 0105: a GIN index); a
 * search of digits also finds them anywhere in the contact's number (trigram index). The list's
 * filters and visibility are conditions of the same scan; ordered by recency. When the words are
 * common (PostgreSQL's statistics of the search words, search-frequency.ts) the newest tickets are
 * walked instead (see searchTuning).
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
  const conditions: string[] = [];
  const words = searchWords(search);
  if (words.length) conditions.push(`t.search_words @@ to_tsquery('simple', ${p(tsquery(words))})`);
  const digits = search.replace(/\D/g, "");
  const byNumber = digits.length >= 3 && digits === search.replace(/[\s()+.-]/g, "");
  if (byNumber) {
    conditions.push(`t.contact_id = ANY(ARRAY(SELECT c2.id FROM contacts c2 WHERE c2.company_id = $1 AND lower(c2.number) LIKE ${p(`%${digits}%`)}))`);
  }
  if (!conditions.length) return [];
  const where = `${baseWhere} AND (${conditions.join(" OR ")})`;

  // digits of a number match few tickets: always collected
  const expected = byNumber ? 0 : await expectedMatches(ctx.sql, words);
  if (expected > searchTuning.walkAbove) {
    // The words as a CASE: a condition the planner can neither send to the words' index nor weigh as
    // rare. Its estimate for several prefix words is far too low (40 of 65k matches), so with the bare
    // condition it collected all 65k through the index and sorted them (385 ms) instead of walking.
    return ctx.sql.many<{ id: number }>(
      `SELECT t.id FROM tickets t WHERE ${baseWhere} AND CASE WHEN ${conditions.join(" OR ")} THEN true END
        ORDER BY t.updated_at DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
  }
  return ctx.sql.many<{ id: number }>(
    `WITH matches AS MATERIALIZED (SELECT t.id, t.updated_at FROM tickets t WHERE ${where})
     SELECT id FROM matches ORDER BY updated_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
}
