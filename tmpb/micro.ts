import pg from "pg";
import { ticketsPage } from "@atende/shared";
import { TICKET_COLUMNS, TICKET_FIELDS, TICKET_JOINS } from "../apps/server/src/domains/tickets/repository.js";
import { presentTicket } from "../apps/server/src/domains/tickets/presenter.js";
import "../apps/server/src/db/sql.js";
const base = "t.company_id = $1 AND TRUE AND t.status = $2 AND (t.queue_id = ANY($3::int[]) OR t.queue_id IS NULL)";
const text = `WITH page AS (SELECT ${TICKET_FIELDS} FROM tickets t WHERE ${base} ORDER BY t.updated_at DESC, t.id DESC LIMIT 41 OFFSET $4)
 SELECT ${TICKET_COLUMNS}, (SELECT count(*)::int FROM (SELECT 1 FROM tickets t WHERE ${base} LIMIT 1000) x) AS total_count FROM page t ${TICKET_JOINS} ORDER BY t.updated_at DESC, t.id DESC`;
const c = new pg.Client({ connectionString: "postgresql://postgres@127.0.0.1:5499/bench12", options: "-c plan_cache_mode=force_generic_plan" });
await c.connect();
const N = 1000;
let rows: any[] = [];
for (let i = 0; i < 100; i++) rows = (await c.query({ name: "l", text, values: [1, "open", [1, 2, 3, 4, 5], 0] })).rows;
let cpu = process.cpuUsage();
for (let i = 0; i < N; i++) rows = (await c.query({ name: "l", text, values: [1, "open", [1, 2, 3, 4, 5], 0] })).rows;
let u = process.cpuUsage(cpu); console.log("query+parse node cpu ms", ((u.user + u.system) / N / 1000).toFixed(3));
cpu = process.cpuUsage();
let out: any;
for (let i = 0; i < N; i++) out = { tickets: rows.slice(0, 40).map(presentTicket), hasMore: true, count: 1000 };
u = process.cpuUsage(cpu); console.log("present ms", ((u.user + u.system) / N / 1000).toFixed(3));
cpu = process.cpuUsage();
let s = "";
for (let i = 0; i < N; i++) { const r = ticketsPage.safeParse(out); s = JSON.stringify(r.data); }
u = process.cpuUsage(cpu); console.log("zod parse+stringify ms", ((u.user + u.system) / N / 1000).toFixed(3), s.length, "bytes");
cpu = process.cpuUsage();
for (let i = 0; i < N; i++) { s = JSON.stringify(out); }
u = process.cpuUsage(cpu); console.log("stringify only ms", ((u.user + u.system) / N / 1000).toFixed(3));
await c.end();
