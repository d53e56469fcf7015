import type { ReportDimension, ReportFilters, ReportMetric } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { EVENTS, filterSql, NO_FIGURES, type FigureRow, type ReportEvent } from "./filters.js";
import * as rollup from "./rollup.js";

/**
 * The reports' reads, all on ticket_traking (one row per handling cycle, kept by triggers: 0400,
 * 0401). Every query is scoped by company_id ($1) and the range [$2, $3), and reads the cycles
 * through the indexes that lead with company_id and the event's time.
 */
export interface ReportScope {
  companyId: number;
  start: Date;
  end: Date;
  /** The same range as the company's local days (both included), for the roll-up. */
  days: { from: string; to: string };
  filters: ReportFilters;
}

/**
 * The figures per group: `key` is the SQL of the group (null: one group, the whole scope). Four
 * queries, one per event, merged by key.
 */
export async function figuresBy(sql: Sql, s: ReportScope, key: string | null, join = ""): Promise<Map<number | null, FigureRow>> {
  const out = new Map<number | null, FigureRow>();
  await Promise.all(
    (Object.keys(EVENTS) as ReportEvent[]).map(async (event) => {
      const e = EVENTS[event];
      const params: unknown[] = [s.companyId, s.start, s.end];
      const where = `tt.company_id = $1 AND tt.${e.column} >= $2 AND tt.${e.column} < $3${e.where}${filterSql(s.filters, params)}`;
      const rows = await sql.many<Partial<FigureRow> & { key: number | null }>(
        key === null
          ? `SELECT NULL::int AS key, ${e.figures} FROM ticket_traking tt WHERE ${where}`
          : `SELECT ${key} AS key, ${e.figures} FROM ticket_traking tt${join} WHERE ${where} GROUP BY 1`,
        params,
      );
      for (const { key: k, ...figures } of rows) out.set(k, { ...(out.get(k) ?? NO_FIGURES), ...figures });
    }),
  );
  return out;
}

/**
 * The figures from the daily roll-up (every filter and grouping: reports/rollup.ts), or read live on
 * the cycles with `live` (the definition, which the equivalence test compares them with).
 */
export async function summary(sql: Sql, s: ReportScope, live = false): Promise<FigureRow> {
  const figures = !live ? await rollup.figures(sql, s.companyId, s.days, s.filters, null) : await figuresBy(sql, s, null);
  return figures.get(null) ?? NO_FIGURES;
}

const DIMENSION: Record<ReportDimension, { key: string; join: string; names: string }> = {
  agent: { key: "tt.user_id", join: "", names: "users" },
  queue: { key: "tt.queue_id", join: "", names: "queues" },
  connection: { key: "tt.whatsapp_id", join: "", names: "whatsapps" },
  // a cycle counts under each tag its ticket carries; cycles without tags are in no row
  tag: { key: "g.tag_id", join: " JOIN ticket_tags g ON g.company_id = tt.company_id AND g.ticket_id = tt.ticket_id", names: "tags" },
};

/** The figures per agent, queue, connection or tag, most tickets first (then resolved, then name). */
export async function breakdown(sql: Sql, s: ReportScope, by: ReportDimension, live = false) {
  const d = DIMENSION[by];
  const figures =
    !live ? await rollup.figures(sql, s.companyId, s.days, s.filters, by) : await figuresBy(sql, s, d.key, d.join);
  const ids = [...figures.keys()].filter((k): k is number => k !== null);
  const names = new Map(
    (await sql.many<{ id: number; name: string }>(`SELECT id, name FROM ${d.names} WHERE company_id = $1 AND id = ANY($2::int[])`, [s.companyId, ids])).map((r) => [
      r.id,
      r.name,
    ]),
  );
  const rows = [...figures].map(([id, f]) => ({ ...f, id, name: id === null ? null : (names.get(id) ?? null) }));
  const collator = new Intl.Collator("pt-BR", { sensitivity: "base" });
  return rows.sort(
    (a, b) =>
      b.created - a.created ||
      b.resolved - a.resolved ||
      (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) ||
      collator.compare(a.name ?? "", b.name ?? "") ||
      (a.id ?? 0) - (b.id ?? 0),
  );
}

/**
 * Cycles entered and finished per local day (yyyy-MM-dd) or hour (HH) of the company's zone. Grouped
 * by the local date or hour, formatted once per group.
 */
export function volume(sql: Sql, s: ReportScope, timeZone: string, unit: "day" | "hour", live = false) {
  if (!live && unit === "day") return rollup.volumeByDay(sql, s.companyId, s.days, s.filters);
  const params: unknown[] = [s.companyId, s.start, s.end];
  const where = filterSql(s.filters, params);
  params.push(timeZone);
  const tz = `$${params.length}`;
  const base = (column: string) => {
    const local = `(tt.${column} AT TIME ZONE ${tz})`;
    const bucket = unit === "day" ? `${local}::date` : `extract(hour FROM ${local})::int`;
    const key = unit === "day" ? "to_char(b, 'YYYY-MM-DD')" : "lpad(b::text, 2, '0')";
    return `SELECT ${key} AS key, n FROM (
              SELECT ${bucket} AS b, count(*)::int AS n
                FROM ticket_traking tt
               WHERE tt.company_id = $1 AND tt.${column} >= $2 AND tt.${column} < $3${column === "queued_at" ? " AND tt.opened = 0" : ""}${where}
               GROUP BY 1) g`;
  };
  return sql.many<{ kind: "created" | "resolved"; key: string; n: number }>(
    `SELECT 'created' AS kind, v.* FROM (${base("queued_at")}) v
     UNION ALL
     SELECT 'resolved' AS kind, v.* FROM (${base("finished_at")}) v`,
    params,
  );
}

/** The event a ticket list is read on, per metric. */
export const METRIC_COLUMN: Record<ReportMetric, string> = {
  created: "queued_at",
  resolved: "finished_at",
  firstResponse: "first_response_at",
  csat: "rated_at",
};

export interface ListScope extends ReportScope {
  metric: ReportMetric;
  rating?: number;
}

function listWhere(s: ListScope, params: unknown[]): string {
  const column = METRIC_COLUMN[s.metric];
  let where = `tt.company_id = $1 AND tt.${column} >= $2 AND tt.${column} < $3`;
  // created: each ticket once, in the holding it was created in (its queue and agent then)
  if (s.metric === "created") where += " AND tt.opened = 0";
  if (s.metric === "csat") where += " AND tt.rating IS NOT NULL";
  if (s.rating !== undefined) {
    params.push(s.rating);
    where += ` AND tt.rating = $${params.length}`;
  }
  return where + filterSql(s.filters, params);
}

export interface TicketRow {
  cycle_id: number;
  ticket_id: number;
  uuid: string;
  contact_name: string;
  contact_number: string;
  status: "pending" | "open" | "paused" | "closed";
  queue_name: string | null;
  user_name: string | null;
  connection_name: string | null;
  origin_from_me: boolean;
  queued_at: Date;
  first_response_at: Date | null;
  finished_at: Date | null;
  first_response_seconds: number | null;
  resolution_seconds: number | null;
  rating: number | null;
  messages: number;
  held_seconds: number | null;
  /** The event's instant as PostgreSQL wrote it (microseconds kept), for keyset paging. */
  cursor_at: string;
}

const LIST_COLUMNS = (column: string) => `tt.id AS cycle_id, t.id AS ticket_id, t.uuid::text AS uuid, ct.name AS contact_name, ct.number AS contact_number,
       t.status, q.name AS queue_name, u.name AS user_name, w.name AS connection_name, tt.origin_from_me,
       tt.queued_at, tt.first_response_at, tt.finished_at, tt.rating,
       round(extract(epoch FROM tt.first_response_at - tt.queued_at))::float8 AS first_response_seconds,
       round(extract(epoch FROM tt.finished_at - tt.cycle_queued_at))::float8 AS resolution_seconds,
       tt.messages, round(extract(epoch FROM tt.ended_at - tt.started_at))::float8 AS held_seconds,
       tt.${column}::text AS cursor_at`;
const LIST_JOINS = `JOIN tickets t ON t.company_id = tt.company_id AND t.id = tt.ticket_id
  JOIN contacts ct ON ct.company_id = t.company_id AND ct.id = t.contact_id
  LEFT JOIN queues q ON q.company_id = tt.company_id AND q.id = tt.queue_id
  LEFT JOIN users u ON u.company_id = tt.company_id AND u.id = tt.user_id
  LEFT JOIN whatsapps w ON w.company_id = tt.company_id AND w.id = tt.whatsapp_id`;

export function countTickets(sql: Sql, s: ListScope, live = false) {
  const column = rollup.countColumn(s.metric, s.rating);
  if (!live && column) return rollup.countCycles(sql, s.companyId, s.days, s.filters, column);
  const params: unknown[] = [s.companyId, s.start, s.end];
  return sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM ticket_traking tt WHERE ${listWhere(s, params)}`, params);
}

/**
 * One page of the cycles behind a figure, newest event first: the page's cycles picked on the event's
 * index first, then joined to their names (a deep page skips its offset without joining it).
 */
export function ticketPage(sql: Sql, s: ListScope, limit: number, offset: number) {
  const column = METRIC_COLUMN[s.metric];
  const params: unknown[] = [s.companyId, s.start, s.end];
  const where = listWhere(s, params);
  params.push(limit, offset);
  return sql.many<TicketRow>(
    `WITH page AS (
       SELECT tt.id FROM ticket_traking tt
        WHERE ${where} ORDER BY tt.${column} DESC, tt.id DESC LIMIT $${params.length - 1} OFFSET $${params.length})
     SELECT ${LIST_COLUMNS(column)} FROM page JOIN ticket_traking tt ON tt.company_id = $1 AND tt.id = page.id ${LIST_JOINS}
      ORDER BY tt.${column} DESC, tt.id DESC`,
    params,
  );
}

/** The batch after `after` (keyset on the event's instant and the cycle id), for the CSV stream. */
export function ticketBatch(sql: Sql, s: ListScope, limit: number, after: { at: string; id: number } | null) {
  const column = METRIC_COLUMN[s.metric];
  const params: unknown[] = [s.companyId, s.start, s.end];
  let where = listWhere(s, params);
  if (after) {
    params.push(after.at, after.id);
    where += ` AND (tt.${column}, tt.id) < ($${params.length - 1}::timestamptz, $${params.length})`;
  }
  params.push(limit);
  return sql.many<TicketRow>(
    `SELECT ${LIST_COLUMNS(column)} FROM ticket_traking tt ${LIST_JOINS}
      WHERE ${where} ORDER BY tt.${column} DESC, tt.id DESC LIMIT $${params.length}`,
    params,
  );
}

/** The company's queues, users, tags and connections: the filters' choices. */
export async function options(sql: Sql, companyId: number) {
  const list = (table: string) =>
    sql.many<{ id: number; name: string }>(`SELECT id, name FROM ${table} WHERE company_id = $1 ORDER BY lower(name), id`, [companyId]);
  const [queues, users, tags, connections] = await Promise.all([list("queues"), list("users"), list("tags"), list("whatsapps")]);
  return { queues, users, tags, connections };
}
