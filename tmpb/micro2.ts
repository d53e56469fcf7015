import pg from "pg";
import { TICKET_COLUMNS, TICKET_FIELDS, TICKET_JOINS } from "../apps/server/src/domains/tickets/repository.js";
import "../apps/server/src/db/sql.js";
const base = "t.company_id = $1 AND TRUE AND t.status = $2 AND (t.queue_id = ANY($3::int[]) OR t.queue_id IS NULL)";
const mk = (cols: string) => `WITH page AS (SELECT ${TICKET_FIELDS} FROM tickets t WHERE ${base} ORDER BY t.updated_at DESC, t.id DESC LIMIT 41 OFFSET $4)
 SELECT ${cols} FROM page t ${TICKET_JOINS} ORDER BY t.updated_at DESC, t.id DESC`;
const c = new pg.Client({ connectionString: "postgresql://postgres@127.0.0.1:5499/bench12", options: "-c plan_cache_mode=force_generic_plan" });
await c.connect();
const variants: Record<string, string> = {
  ids: "t.id",
  full: TICKET_COLUMNS,
  noDates: TICKET_COLUMNS.replace("t.last_message_at,", "").replace("t.created_at, t.updated_at", "1 AS x"),
  datesAsText: TICKET_COLUMNS.replace("t.last_message_at,", "t.last_message_at::text,").replace("t.created_at, t.updated_at", "t.created_at::text, t.updated_at::text"),
  noTags: TICKET_COLUMNS.replace(/COALESCE\(\(SELECT json_agg[\s\S]*?'\[\]'\) AS tags,/, ""),
};
for (const round of [1, 2]) for (const [name, cols] of Object.entries(variants)) {
  const text = mk(cols);
  for (let i = 0; i < 100; i++) await c.query({ name, text, values: [1, "open", [1, 2, 3, 4, 5], 0] });
  const cpu = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < 800; i++) await c.query({ name, text, values: [1, "open", [1, 2, 3, 4, 5], 0] });
  const u = process.cpuUsage(cpu);
  if (round === 2) console.log(name.padEnd(12), "node cpu ms", ((u.user + u.system) / 800 / 1000).toFixed(3), "wall", ((performance.now() - t0) / 800).toFixed(3));
}
await c.end();
