import type { FastifyBaseLogger } from "fastify";
import type { Sql } from "../../db/sql.js";

/**
 * The daily roll-up of ticket cycles (migration 0410): counts and exact sums per company-local day
 * and (agent, queue, connection, origin) in `ticket_rollup`, duration histograms per dimension in
 * `ticket_rollup_hist`, new contacts per day in `contact_rollup`. Triggers append every change of a
 * cycle or contact to a delta table; `compact` folds a company's deltas in, and every read calls it
 * first, so the roll-up answers exactly what the live queries would. The figures per tag
 * (migration 0412, `ticket_rollup_tag`) and the tickets per status (0411, `ticket_status_count`) are
 * kept and folded in the same way.
 */
export async function compact(sql: Sql, companyId: number): Promise<void> {
  await sql.exec("SELECT ticket_rollup_compact($1), ticket_tag_rollup_compact($1), ticket_status_compact($1)", [companyId]);
}

/** The days of a request: both included, yyyy-MM-dd in the company's zone. */
export interface Days {
  from: string;
  to: string;
}

/** Folds in the deltas of every company that has some, one company (one transaction) at a time. */
async function sweep(sql: Sql): Promise<void> {
  const pending = await sql.many<{ id: number }>(
    `SELECT c.id FROM companies c
      WHERE EXISTS (SELECT 1 FROM ticket_rollup_delta d WHERE d.company_id = c.id)
         OR EXISTS (SELECT 1 FROM contact_rollup_delta d WHERE d.company_id = c.id)
         OR EXISTS (SELECT 1 FROM ticket_status_delta d WHERE d.company_id = c.id)
         OR EXISTS (SELECT 1 FROM ticket_rollup_tag_delta d WHERE d.company_id = c.id)
      ORDER BY c.id`,
  );
  for (const c of pending) await compact(sql, c.id);
}

/** The deltas of every company folded in once a minute, so they never pile up between reads. */
export function startRollupSweep(sql: Sql, log: FastifyBaseLogger, everyMs = 60_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep(sql)
      .catch((err: unknown) => log.error({ err }, "report roll-up: the periodic compaction failed; the next read or sweep folds the deltas in"))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * ` AND <the row's tag set holds one of the tags>` (migration 0790: each ticket, and each contact, in
 * exactly one set, so "any of these tags" counts it once), the tags appended to `params`; nothing
 * without tags.
 */
function inTagSets(tags: number[] | null, params: unknown[], alias: string): string {
  if (!tags) return "";
  params.push(tags);
  return ` AND ${alias}.tagset_id IN (SELECT s.id FROM ticket_tagsets s WHERE s.company_id = $1 AND s.tag_ids && $${params.length}::int[])`;
}

/**
 * The counts rows (alias r) of the tag filter, clause appended to `params`: none, one tag's rows of
 * the per-tag roll-up (migration 0822: a twelfth of the sets' rows at a real company's diversity), or
 * for several tags the rows of the sets holding one of them (each ticket in exactly one set, so
 * "any of these tags" counts it once).
 */
function countsOf(tags: number[] | null, params: unknown[]): { table: string; where: string } {
  if (!tags) return { table: "ticket_rollup r", where: "" };
  const distinct = [...new Set(tags)];
  if (distinct.length === 1) {
    params.push(distinct[0]);
    return { table: "ticket_rollup_present_tag r", where: ` AND r.tag_id = $${params.length}` };
  }
  return { table: "ticket_rollup_present r", where: inTagSets(distinct, params, "r") };
}

/** Tickets waiting (pending) and being handled (open, paused) now, from the status counters. */
export function currentLoad(sql: Sql, companyId: number, tags: number[] | null = null) {
  const params: unknown[] = [companyId];
  return sql.one<{ pending: number; happening: number }>(
    `SELECT COALESCE(sum(c.n) FILTER (WHERE c.status = 'pending'), 0)::int AS pending,
            COALESCE(sum(c.n) FILTER (WHERE c.status IN ('open', 'paused')), 0)::int AS happening
       FROM ticket_status_count c WHERE c.company_id = $1${inTagSets(tags, params, "c")}`,
    params,
  );
}

/** The company's tags with the cycles that entered in the days on tickets carrying each. */
export function tagCounts(sql: Sql, companyId: number, days: Days) {
  return sql.many<{ id: number; name: string; color: string; tickets: number }>(
    `SELECT tg.id, tg.name, tg.color, COALESCE(n.tickets, 0) AS tickets
       FROM tags tg
       LEFT JOIN (
         SELECT r.tag_id, sum(r.created)::int AS tickets FROM ticket_rollup_tag r
          WHERE r.company_id = $1 AND r.day >= $2::date AND r.day <= $3::date
          GROUP BY r.tag_id
       ) n ON n.tag_id = tg.id
      WHERE tg.company_id = $1
      ORDER BY lower(tg.name), tg.id`,
    [companyId, days.from, days.to],
  );
}

/** SQL minutes with one decimal from a sum of seconds over a count, as the live `avg` gives them. */
const minutes = (sum: string, n: string) => `COALESCE(round((${sum} / NULLIF(${n}, 0) / 60)::numeric, 1), 0)::float8`;

export interface RangeFigures {
  /** cycles finished in the days, and their average handling time (accepted → finished) */
  finished: number;
  avg_support: number;
  /** average wait of the cycles accepted in the days that waited at all */
  avg_wait: number;
  /** every user of the company (see repository.attendants) */
  attendants: {
    id: number;
    name: string;
    tickets: number;
    count_ativo: number;
    count_receptivo: number;
    avg_support: number;
    /** presence's inputs; the rule is isOnline (packages/shared/src/presence.ts) */
    online_flag: boolean;
    last_seen_at: string | null;
  }[];
}

/**
 * The range's figures in one scan of the days' roll-up rows (grouped per agent first, then summed):
 * the finished count and average handling time, the average wait and the attendants' figures. Under
 * a tag filter the rows are those of the tag (countsOf).
 */
export async function rangeFigures(sql: Sql, companyId: number, days: Days, tags: number[] | null = null): Promise<RangeFigures> {
  const params: unknown[] = [companyId, days.from, days.to];
  const counts = countsOf(tags, params);
  return sql.one<RangeFigures>(
    `WITH per_user AS (
       SELECT r.user_id, sum(r.finished) AS finished, sum(r.support_sum) AS support_sum, sum(r.support_n) AS support_n,
              sum(r.wait_sum) AS wait_sum, sum(r.waited) AS waited, sum(r.started) AS started,
              COALESCE(sum(r.started) FILTER (WHERE r.origin_from_me), 0) AS ativo,
              COALESCE(sum(r.started) FILTER (WHERE NOT r.origin_from_me), 0) AS receptivo
         FROM ${counts.table}
        WHERE r.company_id = $1 AND r.day >= $2::date AND r.day <= $3::date${counts.where}
        GROUP BY r.user_id
     ), people AS (
       SELECT COALESCE(json_agg(json_build_object(
                'id', u.id, 'name', u.name, 'tickets', COALESCE(a.started, 0)::int, 'count_ativo', COALESCE(a.ativo, 0)::int,
                'count_receptivo', COALESCE(a.receptivo, 0)::int, 'avg_support', ${minutes("a.support_sum", "a.support_n")},
                'online_flag', u.online, 'last_seen_at', u.last_seen_at
              ) ORDER BY lower(u.name), u.id), '[]'::json) AS attendants
         FROM users u LEFT JOIN per_user a ON a.user_id = u.id
        WHERE u.company_id = $1
     )
     SELECT COALESCE(sum(p.finished), 0)::int AS finished, ${minutes("sum(p.support_sum)", "sum(p.support_n)")} AS avg_support,
            ${minutes("sum(p.wait_sum)", "sum(p.waited)")} AS avg_wait, (SELECT attendants FROM people) AS attendants
       FROM per_user p`,
    params,
  );
}

/** Contacts (not groups) created in the days; with tags, those with a ticket carrying one (the contact's set). */
export function leads(sql: Sql, companyId: number, days: Days, tags: number[] | null = null) {
  const params: unknown[] = [companyId, days.from, days.to];
  return sql.one<{ n: number }>(
    `SELECT COALESCE(sum(r.n), 0)::int AS n FROM contact_rollup r
      WHERE r.company_id = $1 AND r.day >= $2::date AND r.day <= $3::date${inTagSets(tags, params, "r")}`,
    params,
  );
}

