import type { ReportDimension, ReportFilters } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import type { Days } from "../dashboard/rollup.js";
import { NO_FIGURES, type FigureRow } from "./filters.js";

/**
 * The reports' figures from the daily roll-up (migration 0410; see dashboard/rollup.ts). Counts,
 * sums and CSAT are exact. Medians and p90 are PostgreSQL's percentile_cont over the histogram's
 * buckets, each value taken as its bucket's lower bound: exact for whole seconds under a minute,
 * whole minutes under a day and whole hours beyond; otherwise at most one bucket below the live
 * figure (under 1 s, 1 min or 1 h, the precision the page shows: docs/architecture.md, "Reports").
 */

/**
 * The roll-up that holds these filters and this grouping: "groups" (ticket_rollup: agent, queue,
 * connection, origin in any combination), "tags" (ticket_rollup_tag: a tag alone, or the breakdown by
 * tag without filters), "status" (ticket_rollup_status, migration 0822: the ticket's status now, with
 * any of the cycle's filters) or "presentTag" (ticket_rollup_present_tag, migration 0822: the status
 * now per tag the ticket carries, with any of the cycle's filters: a tag with other filters, and the
 * breakdown by tag with any filter). The tables per tag set (0790) are the dashboard's, for "any of
 * these tags"; at a real company's tag diversity they hold about a row per cycle, so no report reads them.
 */
type Source = "groups" | "tags" | "status" | "presentTag" | "present";
function sourceFor(f: ReportFilters, by: ReportDimension | null = null): Source {
  const cycleFilters = setFilters(f).length;
  // the breakdown by tag under a tag: the other tags of the tickets that carry it, only the sets know
  if (by === "tag" && f.tagId !== undefined) return "present";
  if (by === "tag") return cycleFilters === 0 && f.status === undefined ? "tags" : "presentTag";
  if (f.status !== undefined) return f.tagId === undefined ? "status" : "presentTag";
  if (f.tagId !== undefined) return cycleFilters === 0 ? "tags" : "presentTag";
  return "groups";
}

/**
 * The clauses of the ticket's present (status, tag), alias `alias`: the tag is the row's own in the
 * per-tag tables, or one of its set's in the tables per set.
 */
function presentFilterSql(f: ReportFilters, params: unknown[], alias: string, source: Source): string {
  let out = "";
  if (f.status !== undefined) {
    params.push(f.status);
    out += ` AND ${alias}.ticket_status = $${params.length}`;
  }
  if (f.tagId !== undefined) {
    params.push(f.tagId);
    out +=
      source === "present"
        ? ` AND ${alias}.tagset_id IN (SELECT s.id FROM ticket_tagsets s WHERE s.company_id = $1 AND $${params.length}::int = ANY (s.tag_ids))`
        : ` AND ${alias}.tag_id = $${params.length}`;
  }
  return out;
}

/**
 * The rows of a table per tag set (alias `alias`) under `where`, summed per set first (`columns`
 * kept, `sums` summed under their own names), then each set's sums under each of its tags as
 * `tag_id`: a cycle counts under each tag its ticket carries.
 */
const perTagOfSets = (table: string, alias: string, where: string, columns: string[], sums: string[]) => {
  const keep = ["company_id", "tagset_id", ...columns].map((c) => `${alias}.${c}`).join(", ");
  const summed = sums.map((c) => `sum(${alias}.${c}) AS ${c}`).join(", ");
  return `(SELECT x.tag_id, ${columns.map((c) => `${alias}.${c}`).concat(sums.map((c) => `${alias}.${c}`)).join(", ")}
             FROM (SELECT ${keep}, ${summed} FROM ${table} ${alias} WHERE ${where} GROUP BY ${keep}) ${alias}
             JOIN ticket_tagsets s ON s.company_id = ${alias}.company_id AND s.id = ${alias}.tagset_id
            CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)) ${alias}`;
};
const COUNT_COLUMNS = ["created", "finished", "answered", "rated", "r1", "r2", "r3", "r4", "r5"];

/** The table (with joins) and WHERE clause (alias r, $1 company, $2..$3 days) of the roll-up holding the filters. */
function countsScope(f: ReportFilters, params: unknown[], by: ReportDimension | null = null): { table: string; where: string } {
  const days = "r.company_id = $1 AND r.day >= $2::date AND r.day <= $3::date";
  const source = sourceFor(f, by);
  if (source === "tags") {
    if (f.tagId === undefined) return { table: "ticket_rollup_tag r", where: days };
    params.push(f.tagId);
    return { table: "ticket_rollup_tag r", where: `${days} AND r.tag_id = $${params.length}` };
  }
  const where = days + rollupFilterSql(f, params) + presentFilterSql(f, params, "r", source);
  if (source === "present") return { table: perTagOfSets("ticket_rollup_present", "r", where, [], COUNT_COLUMNS), where: "true" };
  if (source === "presentTag") return { table: "ticket_rollup_present_tag r", where };
  if (source === "status") return { table: "ticket_rollup_status r", where };
  return { table: "ticket_rollup r", where };
}

/** The roll-up's grouping columns per filter or breakdown, and the histogram dimension of each. */
const COLUMN = { queueId: "queue_id", userId: "user_id", whatsappId: "whatsapp_id" } as const;
const HIST_DIM: Record<"userId" | "queueId" | "whatsappId" | "origin", number> = { userId: 1, queueId: 2, whatsappId: 3, origin: 4 };
const BREAKDOWN: Partial<Record<ReportDimension, { column: string; dim: number }>> = {
  agent: { column: "user_id", dim: 1 },
  queue: { column: "queue_id", dim: 2 },
  connection: { column: "whatsapp_id", dim: 3 },
};

function rollupFilterSql(f: ReportFilters, params: unknown[], alias = "r"): string {
  const out: string[] = [];
  for (const k of ["queueId", "userId", "whatsappId"] as const) {
    const v = f[k];
    if (v === undefined) continue;
    if (v === "none") out.push(`${alias}.${COLUMN[k]} IS NULL`);
    else {
      params.push(v);
      out.push(`${alias}.${COLUMN[k]} = $${params.length}`);
    }
  }
  if (f.origin) out.push(f.origin === "ativo" ? `${alias}.origin_from_me` : `NOT ${alias}.origin_from_me`);
  return out.map((c) => ` AND ${c}`).join("");
}

/** The filters set among the roll-up's columns. */
const setFilters = (f: ReportFilters) => (["userId", "queueId", "whatsappId", "origin"] as const).filter((k) => f[k] !== undefined);

/**
 * The per-dimension histogram that answers these cycle filters and this grouping (by agent, queue or
 * connection: its dimension; null or tag: the whole, or the one filtered dimension), or null: two
 * filters, or a filter with a breakdown by a dimension, read the per-group histograms of the groups
 * they keep.
 */
function histogramFor(f: ReportFilters, by: ReportDimension | null): { dim: number; key: number | "none" | null } | null {
  const set = setFilters(f);
  if (by !== null && by !== "tag") return set.length === 0 ? { dim: BREAKDOWN[by]!.dim, key: null } : null;
  if (set.length === 0) return { dim: 0, key: null };
  if (set.length > 1) return null;
  const k = set[0]!;
  const v = f[k]!;
  return { dim: HIST_DIM[k], key: k === "origin" ? (v === "ativo" ? 1 : 0) : (v as number | "none") };
}

/**
 * The histogram read of these filters and this grouping (alias h; $1 company, $2..$3 days): the
 * per-tag tables (source "tags"), the per-dimension ones when one dimension answers (histogramFor),
 * else the per-group ones; with the ticket's present, their status or per-tag versions (0822).
 */
function histogramSql(f: ReportFilters, by: ReportDimension | null, params: unknown[]): string {
  const source = sourceFor(f, by);
  const days = "h.company_id = $1 AND h.day >= $2::date AND h.day <= $3::date";
  const groupBy = (key: string, table: string, where: string) => `SELECT ${key} AS key, h.metric, h.bucket, sum(h.n)::int AS n
      FROM ${table} WHERE ${where}
     GROUP BY 1, h.metric, h.bucket HAVING sum(h.n) <> 0
     ORDER BY 1, h.metric, h.bucket`;
  if (source === "tags") {
    let where = days;
    if (f.tagId !== undefined) {
      params.push(f.tagId);
      where += ` AND h.tag_id = $${params.length}`;
    }
    return groupBy(by === "tag" ? "h.tag_id" : "NULL::int", "ticket_rollup_tag_hist h", where);
  }
  const present = source !== "groups";
  const prefix = { present: "ticket_rollup_present", presentTag: "ticket_rollup_present_tag", status: "ticket_rollup_status", groups: "ticket_rollup" }[source];
  // by tag under a tag: the rows per set summed first, then under each tag of the set
  const grouped = (key: string, table: string, where: string) =>
    source === "present" ? groupBy(key, perTagOfSets(table, "h", where, ["metric", "bucket"], ["n"]), "true") : groupBy(key, `${table} h`, where);
  const hist = histogramFor(f, by);
  if (hist) {
    params.push(hist.dim);
    let where = `${days} AND h.dim = $${params.length}`;
    if (hist.key === "none") where += " AND h.key IS NULL";
    else if (hist.key !== null) {
      params.push(hist.key);
      where += ` AND h.key = $${params.length}`;
    }
    if (present) where += presentFilterSql(f, params, "h", source);
    const key = by === null ? "NULL::int" : by === "tag" ? "h.tag_id" : "h.key";
    return grouped(key, `${prefix}_hist`, where);
  }
  const where = days + rollupFilterSql(f, params, "h") + (present ? presentFilterSql(f, params, "h", source) : "");
  const key = by === null ? "NULL::int" : by === "tag" ? "h.tag_id" : `h.${BREAKDOWN[by]!.column}`;
  return grouped(key, `${prefix}_group_hist`, where);
}

/** PostgreSQL's round(float8): to the nearest integer, halves to even (rint). */
function rint(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * percentile_cont(p) of the values a histogram stands for (each bucket's count times its lower
 * bound), rounded as the live query rounds; buckets sorted ascending; null when empty.
 */
export function histogramPercentile(buckets: { bucket: number; n: number }[], p: number): number | null {
  const total = buckets.reduce((s, b) => s + b.n, 0);
  if (total <= 0) return null;
  const pos = p * (total - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const valueAt = (index: number) => {
    let seen = 0;
    for (const b of buckets) {
      seen += b.n;
      if (index < seen) return b.bucket;
    }
    return buckets.at(-1)!.bucket;
  };
  const a = valueAt(lo);
  const b = hi === lo ? a : valueAt(hi);
  return rint(a + (pos - lo) * (b - a));
}

interface CountRow {
  key: number | null;
  created: number;
  resolved: number;
  answered: number;
  rated: number;
  csat_average: number | null;
  satisfied: number;
  distribution: number[];
}

/**
 * The figures per group (`by` null: one group, the whole scope) from the roll-up: the counts of the
 * days' rows, the percentiles of the matching histogram. Only groups with at least one event in the
 * range are returned, as the live queries return them.
 */
export async function figures(sql: Sql, companyId: number, days: Days, f: ReportFilters, by: ReportDimension | null): Promise<Map<number | null, FigureRow>> {
  const column = by === null ? null : by === "tag" ? "r.tag_id" : `r.${BREAKDOWN[by]!.column}`;
  const params: unknown[] = [companyId, days.from, days.to];
  const { table, where } = countsScope(f, params, by);
  const countsSql = `SELECT ${column ?? "NULL::int"} AS key,
         COALESCE(sum(r.created), 0)::int AS created, COALESCE(sum(r.finished), 0)::int AS resolved,
         COALESCE(sum(r.answered), 0)::int AS answered, COALESCE(sum(r.rated), 0)::int AS rated,
         round(sum(r.r1 + 2 * r.r2 + 3 * r.r3 + 4 * r.r4 + 5 * r.r5)::numeric / NULLIF(sum(r.rated), 0), 2)::float8 AS csat_average,
         COALESCE(sum(r.r4 + r.r5), 0)::int AS satisfied,
         array[COALESCE(sum(r.r1), 0), COALESCE(sum(r.r2), 0), COALESCE(sum(r.r3), 0), COALESCE(sum(r.r4), 0), COALESCE(sum(r.r5), 0)]::int[] AS distribution
    FROM ${table} WHERE ${where}
    ${column ? `GROUP BY 1 HAVING sum(r.created) <> 0 OR sum(r.finished) <> 0 OR sum(r.answered) <> 0 OR sum(r.rated) <> 0` : ""}`;
  const hParams: unknown[] = [companyId, days.from, days.to];
  const histSql = histogramSql(f, by, hParams);

  const [counts, buckets] = await Promise.all([
    sql.many<CountRow>(countsSql, params),
    sql.many<{ key: number | null; metric: number; bucket: number; n: number }>(histSql, hParams),
  ]);
  const perGroup = new Map<string, { bucket: number; n: number }[]>();
  for (const b of buckets) {
    const id = `${column ? String(b.key) : "all"}:${b.metric}`;
    let list = perGroup.get(id);
    if (!list) perGroup.set(id, (list = []));
    list.push({ bucket: b.bucket, n: b.n });
  }
  const out = new Map<number | null, FigureRow>();
  for (const c of counts) {
    const id = column ? String(c.key) : "all";
    const fr = perGroup.get(`${id}:1`) ?? [];
    const res = perGroup.get(`${id}:2`) ?? [];
    out.set(c.key, {
      ...NO_FIGURES,
      created: c.created,
      resolved: c.resolved,
      answered: c.answered,
      first_response_median: histogramPercentile(fr, 0.5),
      first_response_p90: histogramPercentile(fr, 0.9),
      resolution_median: histogramPercentile(res, 0.5),
      resolution_p90: histogramPercentile(res, 0.9),
      rated: c.rated,
      csat_average: c.csat_average,
      satisfied: c.satisfied,
      distribution: c.distribution,
    });
  }
  return out;
}

/** Cycles entered and finished per local day, from the roll-up (the shape of repository.volume). */
export function volumeByDay(sql: Sql, companyId: number, days: Days, f: ReportFilters) {
  const params: unknown[] = [companyId, days.from, days.to];
  const { table, where } = countsScope(f, params);
  return sql.many<{ kind: "created" | "resolved"; key: string; n: number }>(
    `WITH d AS (
       SELECT to_char(r.day, 'YYYY-MM-DD') AS key, sum(r.created)::int AS created, sum(r.finished)::int AS resolved
         FROM ${table} WHERE ${where}
        GROUP BY r.day)
     SELECT 'created' AS kind, key, created AS n FROM d WHERE created <> 0
     UNION ALL
     SELECT 'resolved' AS kind, key, resolved AS n FROM d WHERE resolved <> 0`,
    params,
  );
}

/** The roll-up column counting a list's cycles, or null when the list must be counted live. */
export function countColumn(metric: "created" | "resolved" | "firstResponse" | "csat", rating: number | undefined): string | null {
  if (rating !== undefined) return metric === "csat" ? (["r1", "r2", "r3", "r4", "r5"][rating - 1] ?? null) : null;
  return { created: "created", resolved: "finished", firstResponse: "answered", csat: "rated" }[metric];
}

/** How many cycles a list holds, from the roll-up (`column` from countColumn). */
export function countCycles(sql: Sql, companyId: number, days: Days, f: ReportFilters, column: string) {
  const params: unknown[] = [companyId, days.from, days.to];
  const { table, where } = countsScope(f, params);
  return sql.one<{ n: number }>(`SELECT COALESCE(sum(r.${column}), 0)::int AS n FROM ${table} WHERE ${where}`, params);
}
