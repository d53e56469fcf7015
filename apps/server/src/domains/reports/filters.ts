import type { ReportFilters } from "@atende/shared";

/**
 * The WHERE clauses of the report filters on ticket_traking `tt`, with their values appended to
 * `params`. Every clause is a column of the cycle except tag (ticket_tags, by primary key) and status
 * (the ticket's current status, by primary key).
 */
export function filterSql(f: ReportFilters, params: unknown[]): string {
  const out: string[] = [];
  const bind = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const idColumn = (column: string, v: number | "none" | undefined) => {
    if (v === undefined) return;
    out.push(v === "none" ? `tt.${column} IS NULL` : `tt.${column} = ${bind(v)}`);
  };
  idColumn("queue_id", f.queueId);
  idColumn("user_id", f.userId);
  idColumn("whatsapp_id", f.whatsappId);
  if (f.origin) out.push(f.origin === "ativo" ? "tt.origin_from_me" : "NOT tt.origin_from_me");
  if (f.tagId !== undefined) {
    out.push(`EXISTS (SELECT 1 FROM ticket_tags g WHERE g.company_id = tt.company_id AND g.ticket_id = tt.ticket_id AND g.tag_id = ${bind(f.tagId)})`);
  }
  if (f.status) {
    out.push(`EXISTS (SELECT 1 FROM tickets ft WHERE ft.company_id = tt.company_id AND ft.id = tt.ticket_id AND ft.status = ${bind(f.status)})`);
  }
  return out.map((c) => ` AND ${c}`).join("");
}

/** `tt.<column> in [$2, $3)`: the range is always parameters 2 and 3, after the company ($1). */
export const inRange = (column: string) => `(tt.${column} >= $2 AND tt.${column} < $3)`;

/**
 * The cycles a summary, breakdown or volume reads: any of its four events (entered, first answered,
 * finished, rated) in the range; each is a range scan of its own index (migrations 0400, 0401).
 */
export const ANY_EVENT_IN_RANGE = `(${inRange("queued_at")} OR ${inRange("first_response_at")} OR ${inRange("finished_at")} OR ${inRange("rated_at")})`;

/** The flags of one cycle that say which figures it counts in (columns of the `c` CTE). */
export const EVENT_FLAGS = `${inRange("queued_at")} AS is_created,
       COALESCE(${inRange("first_response_at")}, false) AS is_answered,
       COALESCE(${inRange("finished_at")}, false) AS is_resolved,
       COALESCE(${inRange("rated_at")} AND tt.rating IS NOT NULL, false) AS is_rated`;

const seconds = (expr: string) => `extract(epoch FROM ${expr})`;
const percentile = (p: number, expr: string, flag: string) =>
  `round(percentile_cont(${p}) WITHIN GROUP (ORDER BY ${seconds(expr)}) FILTER (WHERE ${flag}))::float8`;

/** The figures over the `c` CTE (whole seconds; null when nothing was measured). */
export const FIGURES = `count(*) FILTER (WHERE is_created)::int AS created,
       count(*) FILTER (WHERE is_resolved)::int AS resolved,
       count(*) FILTER (WHERE is_answered)::int AS answered,
       ${percentile(0.5, "first_response_at - queued_at", "is_answered")} AS first_response_median,
       ${percentile(0.9, "first_response_at - queued_at", "is_answered")} AS first_response_p90,
       ${percentile(0.5, "finished_at - queued_at", "is_resolved")} AS resolution_median,
       ${percentile(0.9, "finished_at - queued_at", "is_resolved")} AS resolution_p90,
       count(*) FILTER (WHERE is_rated)::int AS rated,
       round(avg(rating) FILTER (WHERE is_rated), 2)::float8 AS csat_average,
       count(*) FILTER (WHERE is_rated AND rating >= 4)::int AS satisfied,
       array[count(*) FILTER (WHERE is_rated AND rating = 1), count(*) FILTER (WHERE is_rated AND rating = 2),
             count(*) FILTER (WHERE is_rated AND rating = 3), count(*) FILTER (WHERE is_rated AND rating = 4),
             count(*) FILTER (WHERE is_rated AND rating = 5)]::int[] AS distribution`;

export interface FigureRow {
  created: number;
  resolved: number;
  answered: number;
  first_response_median: number | null;
  first_response_p90: number | null;
  resolution_median: number | null;
  resolution_p90: number | null;
  rated: number;
  csat_average: number | null;
  satisfied: number;
  distribution: number[];
}
