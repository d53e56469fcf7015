import pg from "pg";
import { TICKET_COLUMNS, TICKET_FIELDS, TICKET_JOINS } from "../apps/server/src/domains/tickets/repository.js";
import "../apps/server/src/db/sql.js";
const base = "t.company_id = $1 AND TRUE AND t.status = $2 AND (t.queue_id = ANY($3::int[]) OR t.queue_id IS NULL)";
const page = `WITH page AS (SELECT ${TICKET_FIELDS} FROM tickets t WHERE ${base} ORDER BY t.updated_at DESC, t.id DESC LIMIT 41 OFFSET $4)`;
const c = new pg.Client({ connectionString: "postgresql://postgres@127.0.0.1:5499/bench12", options: "-c plan_cache_mode=force_generic_plan" });
await c.connect();
const variants: Record<string, string> = {
  full: `${page} SELECT ${TICKET_COLUMNS} FROM page t ${TICKET_JOINS} ORDER BY t.updated_at DESC, t.id DESC`,
  jsonAgg: `${page} SELECT json_agg(x ORDER BY x.updated_at DESC, x.id DESC) AS rows FROM (SELECT ${TICKET_COLUMNS} FROM page t ${TICKET_JOINS}) x`,
};
for (const round of [1, 2, 3]) for (const [name, text] of Object.entries(variants)) {
  for (let i = 0; i < 100; i++) await c.query({ name, text, values: [1, "open", [1, 2, 3, 4, 5], 0] });
  const cpu = process.cpuUsage(); const t0 = performance.now();
  let n = 0;
  for (let i = 0; i < 800; i++) { const r = await c.query({ name, text, values: [1, "open", [1, 2, 3, 4, 5], 0] }); n = name === "jsonAgg" ? r.rows[0].rows.length : r.rows.length; }
  const u = process.cpuUsage(cpu);
  if (round > 1) console.log(name.padEnd(12), n, "node cpu ms", ((u.user + u.system) / 800 / 1000).toFixed(3), "wall", ((performance.now() - t0) / 800).toFixed(3));
}
await c.end();
