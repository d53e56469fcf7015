import type { ReportFilters } from "@atende/shared";

/**
 * The WHERE clauses of the report filters on ticket_traking `tt`, with their values appended to
 * `params`. Every clause is a column of the cycle: status and tag read the copy of the ticket's present
 * each cycle keeps (`ticket_status`, `tagset_id`: migration 0790; the roll-up test checks the copies
 * against the tickets and their tags), so no filter joins the tickets or their tags per cycle.
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
    out.push(`tt.tagset_id IN (SELECT s.id FROM ticket_tagsets s WHERE s.company_id = $1 AND ${bind(f.tagId)}::int = ANY (s.tag_ids))`);
  }
  if (f.status) out.push(`tt.ticket_status = ${bind(f.status)}`);
  return out.map((c) => ` AND ${c}`).join("");
}

const seconds = (expr: string) => `extract(epoch FROM ${expr})`;
const percentile = (p: number, expr: string) => `round(percentile_cont(${p}) WITHIN GROUP (ORDER BY ${seconds(expr)}))::float8`;

/**
 * The four events a holding (an interval of a cycle held by one agent and queue: migration 0812) is
 * counted on: created (the ticket's creation, each ticket once), answered (the holder's first answer,
 * measured from when the ticket reached them), resolved (the close, measured from the cycle's start),
 * rated. The four events each read from its own index range (company_id, event time:
 * migrations 0400, 0401) with the figures it gives. Reading them apart (four queries, run side by
 * side) keeps every query a range scan; one query over "any event in the range" made PostgreSQL read
 * the whole table (an OR of four ranges), 185 ms against 100k cycles of a 800k table.
 */
export const EVENTS = {
  // a ticket's creation only: the holdings begun by a reopening or a transfer are not new tickets
  created: { column: "queued_at", where: " AND tt.opened = 0", figures: "count(*)::int AS created" },
  answered: {
    column: "first_response_at",
    where: "",
    figures: `count(*)::int AS answered,
       ${percentile(0.5, "tt.first_response_at - tt.queued_at")} AS first_response_median,
       ${percentile(0.9, "tt.first_response_at - tt.queued_at")} AS first_response_p90`,
  },
  resolved: {
    column: "finished_at",
    where: "",
    figures: `count(*)::int AS resolved,
       ${percentile(0.5, "tt.finished_at - tt.cycle_queued_at")} AS resolution_median,
       ${percentile(0.9, "tt.finished_at - tt.cycle_queued_at")} AS resolution_p90`,
  },
  rated: {
    column: "rated_at",
    where: " AND tt.rating IS NOT NULL",
    figures: `count(*)::int AS rated,
       round(avg(tt.rating), 2)::float8 AS csat_average,
       count(*) FILTER (WHERE tt.rating >= 4)::int AS satisfied,
       array[count(*) FILTER (WHERE tt.rating = 1), count(*) FILTER (WHERE tt.rating = 2), count(*) FILTER (WHERE tt.rating = 3),
             count(*) FILTER (WHERE tt.rating = 4), count(*) FILTER (WHERE tt.rating = 5)]::int[] AS distribution`,
  },
} as const;
export type ReportEvent = keyof typeof EVENTS;

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

/** The figures of a group with no cycle at all. */
export const NO_FIGURES: FigureRow = {
  created: 0,
  resolved: 0,
  answered: 0,
  first_response_median: null,
  first_response_p90: null,
  resolution_median: null,
  resolution_p90: null,
  rated: 0,
  csat_average: null,
  satisfied: 0,
  distribution: [0, 0, 0, 0, 0],
};
