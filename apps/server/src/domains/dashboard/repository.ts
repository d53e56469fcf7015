import type { Sql } from "../../db/sql.js";

/**
 * The dashboard's live reads on the cycles: today's hourly chart, and the definition every roll-up
 * answer (rollup.ts, the page's other figures) is tested against (reports/rollup.test.ts). Every
 * query is scoped by company_id and is a range scan of one index of ticket_traking (migration 0400):
 * queued_at, started_at or finished_at. `tags` (null: no filter)
 * keeps the cycles of tickets carrying at least one of the tags; the clause is left out of the SQL
 * when there are none, since `$n IS NULL OR EXISTS (…)` makes PostgreSQL give up the semi-join plan
 * (45 ms instead of 10 for 25k cycles).
 */
export interface Scope {
  companyId: number;
  start: Date;
  end: Date;
  tags: number[] | null;
}

/** SQL minutes with one decimal from an average of seconds (0 when nothing was measured). */
const minutes = (seconds: string) => `COALESCE(round((${seconds} / 60)::numeric, 1), 0)::float8`;

/**
 * ` AND <the row's ticket carries one of the tags>` with the tags appended to `params`, or nothing
 * without tags.
 */
function tagged(tags: number[] | null, params: unknown[], alias: string, ticketColumn = "ticket_id"): string {
  if (!tags) return "";
  params.push(tags);
  return ` AND EXISTS (SELECT 1 FROM ticket_tags g WHERE g.company_id = ${alias}.company_id AND g.ticket_id = ${alias}.${ticketColumn} AND g.tag_id = ANY($${params.length}::int[]))`;
}

export function timeZoneOf(sql: Sql, companyId: number) {
  return sql.one<{ time_zone: string }>("SELECT time_zone FROM companies WHERE id = $1", [companyId]);
}

/** Tickets waiting and being handled now. */
export function currentLoad(sql: Sql, companyId: number, tags: number[] | null) {
  const params: unknown[] = [companyId];
  return sql.one<{ pending: number; happening: number }>(
    `SELECT count(*) FILTER (WHERE t.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE t.status IN ('open', 'paused'))::int AS happening
       FROM tickets t
      WHERE t.company_id = $1 AND t.status IN ('pending', 'open', 'paused')${tagged(tags, params, "t", "id")}`,
    params,
  );
}

/**
 * Cycles finished in the range, and the average handling time of the holdings that ended in the range
 * (accepted → handed on by a transfer, or finished: each agent's own interval, migration 0812).
 */
export function finishedCycles(sql: Sql, s: Scope) {
  const params: unknown[] = [s.companyId, s.start, s.end];
  const tags = tagged(s.tags, params, "tt");
  return sql.one<{ finished: number; avg_support: number }>(
    `SELECT (SELECT count(*)::int FROM ticket_traking tt
              WHERE tt.company_id = $1 AND tt.finished_at >= $2 AND tt.finished_at < $3${tags}) AS finished,
            (SELECT ${minutes("avg(extract(epoch FROM tt.ended_at - tt.started_at))")} FROM ticket_traking tt
              WHERE tt.company_id = $1 AND tt.ended_at >= $2 AND tt.ended_at < $3 AND tt.started_at IS NOT NULL${tags}) AS avg_support`,
    params,
  );
}

/** Average wait (queued → accepted) of the cycles accepted in the range that waited at all. */
export function waitTime(sql: Sql, s: Scope) {
  const params: unknown[] = [s.companyId, s.start, s.end];
  return sql.one<{ avg_wait: number }>(
    `SELECT ${minutes("avg(extract(epoch FROM tt.started_at - tt.queued_at))")} AS avg_wait
       FROM ticket_traking tt
      WHERE tt.company_id = $1 AND tt.started_at >= $2 AND tt.started_at < $3 AND tt.started_at > tt.queued_at${tagged(s.tags, params, "tt")}`,
    params,
  );
}

function tagsOfContact(tags: number[] | null, params: unknown[]): string {
  if (!tags) return "";
  params.push(tags);
  return ` AND EXISTS (SELECT 1 FROM tickets t JOIN ticket_tags g ON g.company_id = t.company_id AND g.ticket_id = t.id
            WHERE t.company_id = c.company_id AND t.contact_id = c.id AND g.tag_id = ANY($${params.length}::int[]))`;
}

/** Contacts (not groups) created in the range; with tags, only those with a ticket carrying one. */
export function leads(sql: Sql, s: Scope) {
  const params: unknown[] = [s.companyId, s.start, s.end];
  return sql.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM contacts c
      WHERE c.company_id = $1 AND c.created_at >= $2 AND c.created_at < $3 AND NOT c.is_group
${tagsOfContact(s.tags, params)}`,
    params,
  );
}

export interface AttendantRow {
  id: number;
  name: string;
  tickets: number;
  count_ativo: number;
  count_receptivo: number;
  avg_support: number;
  /** presence's inputs; the rule is isOnline (packages/shared/src/presence.ts) */
  online_flag: boolean;
  last_seen_at: string | null;
}

/**
 * Every user of the company with the holdings they accepted in the range (split by origin) and their
 * average handling time over their holdings that ended in the range (accepted → transferred on or
 * finished: each agent's own interval). Presence's inputs (the socket flag, last seen) as the roll-up
 * answer gives them (json), for the one rule, isOnline in packages/shared.
 */
export function attendants(sql: Sql, s: Scope) {
  const params: unknown[] = [s.companyId, s.start, s.end];
  return sql.many<AttendantRow>(
    `WITH accepted AS (
       SELECT tt.user_id, count(*)::int AS tickets,
              count(*) FILTER (WHERE tt.origin_from_me)::int AS count_ativo,
              count(*) FILTER (WHERE NOT tt.origin_from_me)::int AS count_receptivo
         FROM ticket_traking tt
        WHERE tt.company_id = $1 AND tt.started_at >= $2 AND tt.started_at < $3 AND tt.user_id IS NOT NULL${tagged(s.tags, params, "tt")}
        GROUP BY tt.user_id
     ), handled AS (
       SELECT tt.user_id, ${minutes("avg(extract(epoch FROM tt.ended_at - tt.started_at))")} AS avg_support
         FROM ticket_traking tt
        WHERE tt.company_id = $1 AND tt.ended_at >= $2 AND tt.ended_at < $3 AND tt.started_at IS NOT NULL
          AND tt.user_id IS NOT NULL${tagged(s.tags, params, "tt")}
        GROUP BY tt.user_id
     )
     SELECT u.id, u.name, COALESCE(a.tickets, 0) AS tickets, COALESCE(a.count_ativo, 0) AS count_ativo,
            COALESCE(a.count_receptivo, 0) AS count_receptivo, COALESCE(h.avg_support, 0) AS avg_support,
            u.online AS online_flag, to_json(u.last_seen_at) #>> '{}' AS last_seen_at
       FROM users u
       LEFT JOIN accepted a ON a.user_id = u.id
       LEFT JOIN handled h ON h.user_id = u.id
      WHERE u.company_id = $1
      ORDER BY lower(u.name), u.id`,
    params,
  );
}

/** The company's tags with the tickets created in the range carrying each. */
export function tagCounts(sql: Sql, s: Omit<Scope, "tags">) {
  return sql.many<{ id: number; name: string; color: string; tickets: number }>(
    `SELECT tg.id, tg.name, tg.color, COALESCE(n.tickets, 0) AS tickets
       FROM tags tg
       LEFT JOIN (
         SELECT g.tag_id, count(*)::int AS tickets
           FROM ticket_traking tt JOIN ticket_tags g ON g.company_id = tt.company_id AND g.ticket_id = tt.ticket_id
          WHERE tt.company_id = $1 AND tt.queued_at >= $2 AND tt.queued_at < $3 AND tt.opened = 0
          GROUP BY g.tag_id
       ) n ON n.tag_id = tg.id
      WHERE tg.company_id = $1
      ORDER BY lower(tg.name), tg.id`,
    [s.companyId, s.start, s.end],
  );
}

/**
 * Tickets created today (a reopening or a transfer is not a new ticket) per hour of the company's clock (missing hours are absent). Under a tag
 * filter through the cycle's copy of its ticket's tag set (migration 0790): joining the tickets' tags
 * hashed every tagged ticket of the company (90 ms at 1M tickets), the sets are a handful.
 */
export function hourly(sql: Sql, s: Scope, timeZone: string) {
  const params: unknown[] = [s.companyId, s.start, s.end, timeZone];
  let tags = "";
  if (s.tags) {
    params.push(s.tags);
    tags = ` AND tt.tagset_id IN (SELECT ts.id FROM ticket_tagsets ts WHERE ts.company_id = $1 AND ts.tag_ids && $${params.length}::int[])`;
  }
  return sql.many<{ hour: number; tickets: number }>(
    `SELECT extract(hour FROM tt.queued_at AT TIME ZONE $4)::int AS hour, count(*)::int AS tickets
       FROM ticket_traking tt
      WHERE tt.company_id = $1 AND tt.queued_at >= $2 AND tt.queued_at < $3 AND tt.opened = 0${tags}
      GROUP BY 1`,
    params,
  );
}
