/**
 * Ticket workspace benchmark.
 *
 *   nice npx tsx bench/tickets.ts            # throw-away embedded PostgreSQL under the temp folder
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/tickets.ts   # an empty database you own
 *
 * Dashboard and reports only (BENCH_ONLY_REPORTS=1), searches only (BENCH_ONLY_SEARCH=1): see docs/performance.md. Knobs: BENCH_CONTACTS
 * (tickets, one per contact; 1000000 for the 1M run), BENCH_MESSAGES_PER_TICKET (10), BENCH_REUSE=1
 * (with BENCH_DATABASE_URL: keep a database an earlier run seeded, skip the seed), BENCH_WEBHOOK_LOAD=1
 * (bench/webhooks.ts runs in its own processes against the same database while the report scenarios
 * are measured from BENCH_WEBHOOK_SETTLE seconds (30) into its sustained phase; BENCH_WEBHOOK_RATE
 * messages/s, 1000 by default).
 *
 * Seeds one company with 100k contacts, 100k tickets (70% closed, 20% open, 10% pending; 5 queues,
 * 20 agents in one queue each and one in two queues, 90 days) and 1M messages (marker words in 2.75%,
 * 0.2% and 0.01% of them, random messages and random positions in the sentence; BENCH_SEED), starts the real server on a loopback port and measures, over HTTP, 30
 * sequential requests per scenario after a warm-up. Search scenarios are checked against the
 * database (the first page's ids and order, computed from the messages themselves) and measured
 * again after a burst: 2,000 tickets picked at random (returning customers) get a new message
 * without any marker word.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { hashPassword } from "../apps/server/src/core/password.js";
import { startEmbeddedPostgres, tmpDataDir, ensureDatabase, type EmbeddedDatabase } from "../apps/server/src/db/embedded.js";
import { migrate } from "../apps/server/src/db/migrate.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { startServerProcess, BENCH_NO_REQUEST_LIMITS } from "./server-process.js";
import { TEST_SECRETS_KEYS } from "../apps/server/test/factories.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const MESSAGES_PER_TICKET = Number(process.env.BENCH_MESSAGES_PER_TICKET ?? 10);
const ONLY_REPORTS = Boolean(process.env.BENCH_ONLY_REPORTS);
/** Only the search scenarios, before and after the burst (issue 30 item 4). */
const ONLY_SEARCH = Boolean(process.env.BENCH_ONLY_SEARCH);
const RUNS = 30;
const WARMUP = 20;
const WORD = "abacaxi"; // frequent: 2.75% of messages at random, ~24% of tickets
const MID_WORD = "goiaba"; // mid-frequency: 0.2% of messages, ~2% of tickets
const RARE_WORD = "jabuticaba"; // rare: 0.01% of messages
const FREQUENT_SHARE = 0.0275;
const MID_SHARE = 0.002;
const RARE_SHARE = 0.0001;
/** The seed's random spread is repeatable: the same BENCH_SEED gives the same data. */
const SEED = Number(process.env.BENCH_SEED ?? 0.42);
const PASSWORD = "bench-password";

const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = Date.now();
  const result = await fn();
  log(`${label}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

async function seed(pool: Sql): Promise<{ companyId: number; adminEmail: string; agentEmail: string }> {
  // One connection for the whole load (session settings apply to it), then VACUUM outside.
  const c = await pool.tx((sql) => load(sql));
  // the bulk load bypassed the triggers that feed the reports' daily roll-up (migration 0410)
  await timed("report roll-up rebuilt", () => pool.exec("SELECT ticket_rollup_rebuild($1), ticket_tag_rollup_rebuild($1), ticket_status_rebuild($1)", [c]));
  await timed("vacuum analyze", () => pool.exec("VACUUM ANALYZE"));
  return { companyId: c, adminEmail: "admin@bench.test", agentEmail: "agent1@bench.test" };
}

async function load(sql: Sql): Promise<number> {
  const plan = await sql.one<{ id: number }>("INSERT INTO plans (name) VALUES ('Bench') RETURNING id");
  const company = await sql.one<{ id: number }>(
    "INSERT INTO companies (name, email, plan_id, due_date) VALUES ('Bench Co', 'bench@bench.test', $1, '2099-12-31') RETURNING id",
    [plan.id],
  );
  const c = company.id;
  const hash = await hashPassword(PASSWORD);
  await sql.exec("INSERT INTO users (company_id, name, email, password_hash, profile, all_ticket) VALUES ($1, 'Bench Admin', 'admin@bench.test', $2, 'admin', 'enable')", [
    c,
    hash,
  ]);
  await sql.exec(
    `INSERT INTO users (company_id, name, email, password_hash, profile)
     SELECT $1, 'Agente ' || g, 'agent' || g || '@bench.test', $2, 'user' FROM generate_series(1, 20) g`,
    [c, hash],
  );
  await sql.exec(
    `INSERT INTO queues (company_id, name, color) SELECT $1, 'Fila ' || g, '#' || lpad(to_hex(g * 3000000), 6, '0') FROM generate_series(1, 5) g`,
    [c],
  );
  // each agent in one queue (agent g in queue g % 5)
  await sql.exec(
    `INSERT INTO user_queues (company_id, user_id, queue_id)
     SELECT $1, u.id, q.id FROM users u
       JOIN LATERAL (SELECT id FROM queues WHERE company_id = $1 ORDER BY id OFFSET (u.id % 5) LIMIT 1) q ON true
      WHERE u.company_id = $1 AND u.profile = 'user'`,
    [c],
  );
  // an agent in two queues (queues 1 and 2)
  await sql.exec(
    `WITH u AS (INSERT INTO users (company_id, name, email, password_hash, profile) VALUES ($1, 'Agente duas filas', 'agent2q@bench.test', $2, 'user') RETURNING id)
     INSERT INTO user_queues (company_id, user_id, queue_id) SELECT $1, u.id, q.id FROM u, (SELECT id FROM queues WHERE company_id = $1 ORDER BY id LIMIT 2) q`,
    [c, hash],
  );
  await sql.exec("INSERT INTO whatsapps (company_id, name, provider, status, is_default) VALUES ($1, 'Bench WA', 'sandbox', 'CONNECTED', true)", [c]);

  await sql.exec("SET session_replication_role = replica"); // skip FK triggers during the bulk load
  await sql.exec("DROP INDEX IF EXISTS messages_conversation, messages_ticket, tickets_search_words");

  await timed("contacts", () =>
    sql.exec(
      `INSERT INTO contacts (company_id, name, number, created_at)
       SELECT $1,
              (ARRAY['Ana','Bruno','Carla','Diego','Elaine','Fábio','Gisele','Hugo','Iara','João','Karen','Lucas','Marta','Nilo','Olga','Paulo'])[1 + g % 16]
                || ' ' || (ARRAY['Silva','Souza','Costa','Lima','Prado','Alves','Rocha','Dias','Melo','Nunes'])[1 + (g / 16) % 10] || ' ' || g,
              '5511' || lpad(g::text, 9, '0'),
              now() - interval '90 days' * random()
         FROM generate_series(1, $2) g`,
      [c, CONTACTS],
    ),
  );
  await timed("tickets", () =>
    sql.exec(
      `WITH q AS (SELECT array_agg(id ORDER BY id) AS ids FROM queues WHERE company_id = $1),
            u AS (SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE company_id = $1 AND profile = 'user'),
            w AS (SELECT id FROM whatsapps WHERE company_id = $1)
       INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, user_id, queue_id, unread_messages, origin_from_me, created_at, updated_at)
       SELECT $1,
              -- returning customers: a quarter of the closed tickets belong to a contact picked at random
              -- (at most one ticket of a contact is not closed: the others keep their own contact)
              CASE WHEN ct.id % 10 < 7 AND ct.id % 4 = 1 THEN r.lo + floor(random() * r.n)::int ELSE ct.id END,
              w.id,
              CASE WHEN ct.id % 10 < 7 THEN 'closed' WHEN ct.id % 10 < 9 THEN 'open' ELSE 'pending' END,
              CASE WHEN ct.id % 10 = 9 THEN NULL ELSE u.ids[1 + ct.id % 20] END,
              q.ids[1 + (ct.id / 10) % 5],
              CASE WHEN ct.id % 10 >= 7 THEN ct.id % 4 ELSE 0 END,
              ct.id % 3 = 0,
              ct.created_at,
              LEAST(now(), ct.created_at + interval '1 hour' * (ct.id % 48))
         FROM contacts ct, q, u, w, (SELECT min(id) AS lo, count(*) AS n FROM contacts WHERE company_id = $1) r WHERE ct.company_id = $1`,
      [c],
    ),
  );
  // realistic spread (issue 30): the marker words in random messages of random tickets, each at a
  // random position of its sentence; repeatable (setseed on this connection)
  await sql.exec("SELECT setseed($1)", [SEED]);
  await timed("messages (1M)", () =>
    sql.exec(
      `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, ack, read, created_at, updated_at)
       SELECT t.company_id, t.id, t.contact_id, t.whatsapp_id,
              CASE WHEN r.marker IS NULL THEN r.phrase
                   ELSE array_to_string(r.words[1:r.pos] || r.marker || r.words[r.pos + 1:], ' ') END || ' #' || s,
              s % 2 = 1, CASE WHEN s % 2 = 1 THEN 4 ELSE 0 END, true,
              t.created_at + interval '1 minute' * s, t.created_at + interval '1 minute' * s
         FROM tickets t CROSS JOIN generate_series(0, ${MESSAGES_PER_TICKET - 1}) s
        CROSS JOIN LATERAL (
          SELECT x.phrase, string_to_array(x.phrase, ' ') AS words, x.marker,
                 floor(x.at * (array_length(string_to_array(x.phrase, ' '), 1) + 1))::int AS pos
            FROM (SELECT (ARRAY['bom dia, tudo bem?','preciso de ajuda com meu pedido','qual o prazo de entrega?','obrigado pelo retorno',
                                'pode me enviar o boleto?','o produto chegou com defeito','vou verificar e retorno','segue o comprovante',
                                'qual o valor do frete?','perfeito, combinado'])[1 + floor(random() * 10)::int] AS phrase,
                         CASE WHEN k < ${FREQUENT_SHARE} THEN '${WORD}'
                              WHEN k < ${FREQUENT_SHARE + MID_SHARE} THEN '${MID_WORD}'
                              WHEN k < ${FREQUENT_SHARE + MID_SHARE + RARE_SHARE} THEN '${RARE_WORD}' END AS marker,
                         random() AS at
                    FROM (SELECT random() + 0 * (t.id + s) AS k) kk) x
        ) r
        WHERE t.company_id = $1
        ORDER BY t.id, s`,
      [c],
    ),
  );
  // the ticket list and search scenarios need these; the report scenarios do not
  if (!ONLY_REPORTS) await timed("last message of each ticket", () =>
    sql.exec(
      `UPDATE tickets t SET last_message = m.body, last_message_at = m.created_at, last_message_id = m.id
         FROM (SELECT DISTINCT ON (ticket_id) ticket_id, id, body, created_at FROM messages ORDER BY ticket_id, id DESC) m
        WHERE m.ticket_id = t.id AND t.company_id = $1`,
      [c],
    ),
  );
  // the bulk load skipped triggers (replica role): the tickets' search words as the migration computes them
  if (!ONLY_REPORTS) await timed("tickets' search words", () =>
    sql.exec(
      `UPDATE tickets t SET search_words = contact_search_words(c.name, c.number) || w.words
         FROM (SELECT ticket_id, message_search_words(string_agg(body, ' ')) AS words FROM messages GROUP BY ticket_id) w, contacts c
        WHERE t.id = w.ticket_id AND c.id = t.contact_id`,
    ),
  );
  // the bulk load skipped the tracking triggers too: one handling cycle (one holding: no transfer) per
  // ticket, as they would record it; the cycle starts at creation and a closed one ends at its close
  await timed("ticket cycles (tracking)", () =>
    sql.exec(
      `INSERT INTO ticket_traking (company_id, ticket_id, whatsapp_id, user_id, queue_id, origin_from_me, created_at, queued_at, cycle_queued_at,
                                   started_at, first_response_at, finished_at, ended_at, rated_at, rating, ticket_status)
       SELECT t.company_id, t.id, t.whatsapp_id, t.user_id, t.queue_id, t.origin_from_me, t.created_at, t.created_at, t.created_at,
              CASE WHEN t.status <> 'pending' THEN t.created_at + interval '1 minute' * (t.id % 30) END,
              CASE WHEN t.status <> 'pending' THEN t.created_at + interval '1 minute' * (1 + t.id % 20) END,
              CASE WHEN t.status = 'closed' THEN t.updated_at END,
              CASE WHEN t.status = 'closed' THEN t.updated_at END,
              CASE WHEN t.status = 'closed' AND t.id % 5 = 0 THEN t.updated_at + interval '5 minutes' END,
              CASE WHEN t.status = 'closed' AND t.id % 5 = 0 THEN 1 + (t.id / 5) % 5 END, t.status
         FROM tickets t WHERE t.company_id = $1`,
      [c],
    ),
  );
  await sql.exec("SET session_replication_role = origin");
  await timed("indexes", async () => {
    await sql.exec("CREATE INDEX messages_ticket ON messages (ticket_id, id DESC)");
    await sql.exec("CREATE INDEX messages_conversation ON messages (company_id, contact_id, whatsapp_id, id DESC)");
    await sql.exec("CREATE INDEX tickets_search_words ON tickets USING gin (search_words)");
  });
  return c;
}

/**
 * Twelve tags at real diversity (0-3 a ticket, about 175 sets in use), for the dashboard's tag counts,
 * the breakdown by tag and the tag filters. Added once (also to a reused database), through the
 * triggers that keep the per-tag roll-up.
 */
async function ensureTags(sql: Sql, companyId: number): Promise<number[]> {
  const existing = await sql.many<{ id: number }>("SELECT id FROM tags WHERE company_id = $1 ORDER BY id", [companyId]);
  if (existing.length) return existing.map((t) => t.id);
  return timed("tags (real diversity: 12 tags, 0-3 a ticket)", async () => {
    const tags = await sql.many<{ id: number }>(
      `INSERT INTO tags (company_id, name, color) SELECT $1, 'Etiqueta ' || g, '#' || lpad(to_hex(g * 1000000), 6, '0') FROM generate_series(1, 12) g RETURNING id`,
      [companyId],
    );
    const ids = tags.map((t) => t.id).sort((a, b) => a - b);
    // 40 % of tickets untagged, then one (35 %), two (18 %) or three tags (7 %), the first tags the
    // most used (the kanban's lanes); returning customers' contacts gather their tickets' tags
    await sql.exec(
      `INSERT INTO ticket_tags (company_id, ticket_id, tag_id)
       SELECT DISTINCT $1, t.id, ($2::int[])[1 + floor(power(random() + 0 * t.id, 1.6) * 12)::int]
         FROM (SELECT id, random() AS r FROM tickets WHERE company_id = $1) t
        CROSS JOIN LATERAL generate_series(1, CASE WHEN t.r < 0.4 THEN 0 WHEN t.r < 0.75 THEN 1 WHEN t.r < 0.93 THEN 2 ELSE 3 END + 0 * t.id) k`,
      [companyId, ids],
    );
    await sql.exec("ANALYZE ticket_tags");
    const sets = await sql.one<{ tickets: number; contacts: number }>(
      `SELECT (SELECT count(DISTINCT tagset_id) FROM tickets WHERE company_id = $1)::int AS tickets,
              (SELECT count(DISTINCT tagset_id) FROM contacts WHERE company_id = $1)::int AS contacts`,
      [companyId],
    );
    log(`tag sets in use: ${sets.tickets} of tickets, ${sets.contacts} of contacts`);
    return ids;
  });
}

function percentile(sorted: number[], p: number): number {
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

interface Scenario {
  name: string;
  url: (i: number) => string;
  token: string;
  check?: (body: unknown) => string | null | Promise<string | null>;
  /** Work running during the measurement; returns how many operations it did. */
  background?: (stop: () => boolean) => Promise<number>;
}

/**
 * Throughput of the list the web app opens: LIST_CONCURRENCY (50) clients in another process
 * (bench/list-load.ts) asking for the open tickets' first page with the queue filter the web sends.
 */
/** CPU time (user + system) a process has used, in ms, from /proc (Linux); 0 once it is gone. */
function cpuMs(pid: number): number {
  // a process that ended has no stat left: its time counts as 0, and the caller's sum says so by being low
  if (!existsSync(`/proc/${pid}/stat`)) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/**
 * The list throughput with the CPU it cost: the server's process, the database's backends (read
 * from /proc, so PostgreSQL must run on this machine) and the clients' process, per request. On a
 * machine whose cores are shared with other work the requests per second move with that work; the
 * CPU per request does not, and `2 cores / CPU per request` is what this machine could serve.
 */
async function listThroughput(base: string, token: string, queues: { id: number }[], serverPid: number | undefined, sql: Sql) {
  const backends = async () =>
    (await sql.many<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).map((r) => r.pid);
  const before = new Map((await backends()).map((pid) => [pid, cpuMs(pid)]));
  const serverBefore = serverPid ? cpuMs(serverPid) : 0;
  const result = await listLoad(base, token, queues);
  const serverMs = serverPid ? cpuMs(serverPid) - serverBefore : NaN;
  let databaseMs = 0;
  for (const pid of await backends()) databaseMs += cpuMs(pid) - (before.get(pid) ?? 0);
  const all = Number(result.result.allRequests);
  const perRequest = (ms: number) => Math.round((ms / all) * 1000) / 1000;
  const total = serverMs + databaseMs + Number(result.result.clientCpuMs);
  return {
    ...result,
    cpuPerRequest: { server: perRequest(serverMs), database: perRequest(databaseMs), client: perRequest(Number(result.result.clientCpuMs)) },
    capacityOn2Cores: Math.round((2000 / (total / all)) * 10) / 10,
  };
}

async function listLoad(base: string, token: string, queues: { id: number }[]) {
  const concurrency = Number(process.env.BENCH_LIST_CONCURRENCY ?? 50);
  const url = `/api/tickets?status=open&pageNumber=1&showAll=true&queueIds=${encodeURIComponent(JSON.stringify(queues.map((q) => q.id)))}`;
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(path.join(here, "../node_modules/.bin/tsx"), [path.join(here, "list-load.ts")], {
      env: { ...process.env, LIST_BASE: base, LIST_TOKEN: token, LIST_URL: url, LIST_CONCURRENCY: String(concurrency) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (d: Buffer) => (text += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`list-load exited with ${code}`))));
  });
  return { concurrency, result: JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number | string> };
}

/**
 * The drill-down's CSV export, streamed: time to the first byte (what the user waits before the
 * download starts), total time and rows per second, once each; the row count is checked against the
 * list's total for the same filters.
 */
async function measureCsvExports(base: string, token: string, exports: { name: string; query: string }[]) {
  for (const e of exports) {
    const headers = { authorization: `Bearer ${token}` };
    const expected = ((await fetch(`${base}/api/reports/tickets?${e.query}`, { headers }).then((r) => r.json())) as { total: number }).total;
    const start = performance.now();
    const res = await fetch(`${base}/api/reports/tickets.csv?${e.query}`, { headers });
    if (!res.ok || !res.body) throw new Error(`${e.name}: HTTP ${res.status}`);
    let firstByte = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      if (!firstByte) firstByte = performance.now() - start;
      for (const b of chunk as Uint8Array) if (b === 10) lines++;
    }
    const total = performance.now() - start;
    const rows = lines - 1; // the header
    if (rows !== expected) throw new Error(`${e.name}: ${rows} rows exported, the list counts ${expected}`);
    log(`${e.name}: ${rows} rows, first byte ${firstByte.toFixed(0)} ms, total ${(total / 1000).toFixed(1)} s, ${Math.round(rows / (total / 1000))} rows/s (load ${os.loadavg()[0]!.toFixed(1)})`);
  }
}

/** One request of a scenario, checked; its time in ms (the check is not timed). */
async function callScenario(base: string, s: Scenario, i: number): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${base}${s.url(i)}`, { headers: { authorization: `Bearer ${s.token}` } });
  const body = (await res.json()) as unknown;
  const ms = performance.now() - start;
  if (!res.ok) throw new Error(`${s.name}: HTTP ${res.status} ${JSON.stringify(body)}`);
  const problem = await s.check?.(body);
  if (problem) throw new Error(`${s.name}: ${problem}`);
  return ms;
}

const summarise = (name: string, times: number[]) => {
  times.sort((a, b) => a - b);
  return { name, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), max: times.at(-1)!, load: os.loadavg()[0]! };
};

/**
 * The scenarios interleaved, as users asking different things at once would: a few warm-up calls
 * each, then RUNS rounds, each round every scenario once in a shuffled order.
 */
async function measureInterleaved(base: string, scenarios: Scenario[]) {
  for (const s of scenarios) for (let i = 0; i < 5; i++) await callScenario(base, s, i);
  const times = scenarios.map(() => [] as number[]);
  for (let round = 0; round < RUNS; round++) {
    const order = scenarios.map((_, i) => i).sort(() => Math.random() - 0.5);
    for (const i of order) times[i]!.push(await callScenario(base, scenarios[i]!, WARMUP + round));
  }
  return scenarios.map((s, i) => summarise(s.name, times[i]!));
}

async function measure(base: string, s: Scenario) {
  const call = (i: number) => callScenario(base, s, i);
  let stopped = false;
  const background = s.background?.(() => stopped);
  if (background) await new Promise((r) => setTimeout(r, 3000)); // let ack jobs start firing
  for (let i = 0; i < WARMUP; i++) await call(i);
  const times: number[] = [];
  // with background work, sample over a longer window (a request every 100 ms)
  for (let i = 0; i < RUNS; i++) {
    times.push(await call(WARMUP + i));
    if (background) await new Promise((r) => setTimeout(r, 100));
  }
  stopped = true;
  const done = background ? await background : 0;
  if (background) log(`${s.name}: ${done} messages sent in the background`);
  return summarise(s.name, times);
}

/**
 * BENCH_EXPLAIN=1: records the SQL each scenario's request runs and prints EXPLAIN ANALYZE of every
 * SELECT, to see where the time goes.
 */
async function explainScenarios(pool: ReturnType<typeof createPool>, base: string, scenarios: Scenario[]) {
  const recorded: { text: string; params: unknown[] }[] = [];
  const original = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
  let recording = false;
  (pool as unknown as { query: (...a: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    if (recording && typeof args[0] === "string") recorded.push({ text: args[0], params: (args[1] as unknown[]) ?? [] });
    return original(...args);
  };
  for (const s of scenarios) {
    recorded.length = 0;
    recording = true;
    await fetch(`${base}${s.url(0)}`, { headers: { authorization: `Bearer ${s.token}` } });
    recording = false;
    console.log(`\n=== ${s.name}`);
    for (const q of recorded) {
      if (!/^\s*(SELECT|WITH)/i.test(q.text)) continue;
      const plan = (await original(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.params)) as { rows: { "QUERY PLAN": string }[] };
      const lines = plan.rows.map((r) => r["QUERY PLAN"]);
      console.log(`--- ${q.text.replace(/\s+/g, " ").slice(0, 160)}`);
      console.log(lines.length > 40 ? [...lines.slice(0, 30), "...", ...lines.slice(-3)].join("\n") : lines.join("\n"));
    }
  }
  (pool as unknown as { query: unknown }).query = original;
}

/**
 * BENCH_WEBHOOK_LOAD=1: bench/webhooks.ts in processes of its own (its server with job workers, the
 * fake Graph API, and the load process posting signed deliveries) against the same database, a company
 * of its own; resolves once its sustained phase (messages on existing tickets) is posting. `stop`
 * ends that process group and returns what it printed last.
 */
async function startWebhookLoad(databaseUrl: string) {
  const rate = process.env.BENCH_WEBHOOK_RATE ?? "1000";
  const child = spawn(path.join(here, "../node_modules/.bin/tsx"), [path.join(here, "webhooks.ts")], {
    env: {
      ...process.env,
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_NAME_SUFFIX: `-wh${Date.now()}`,
      BENCH_CONTACTS: "2000",
      // one long run: its sustained phase is the load beside the list measurements
      BENCH_RUNS: "1",
      BENCH_RATE: rate,
      BENCH_MESSAGES: String(Number(rate) * 900),
      BENCH_SECONDS: "900",
    },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  let text = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      text += d.toString();
      if (/phase 2: .*posting/i.test(text)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`bench/webhooks.ts exited with ${code} before its sustained phase:\n${text}`)));
  });
  // past its start (ANALYZE between its phases, the server catching up): measured in the steady state
  const settle = Number(process.env.BENCH_WEBHOOK_SETTLE ?? 30);
  await new Promise((r) => setTimeout(r, settle * 1000));
  log(`webhook load running for ${settle} s (${rate} messages/s offered, bench/webhooks.ts)`);
  return {
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
      return text.trim().split("\n").slice(-8).join(" | ");
    },
  };
}

async function main() {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    dataDir = tmpDataDir("bench");
    embedded = await startEmbeddedPostgres(dataDir, { persistent: false });
    await ensureDatabase(embedded.serverUrl("postgres"), "bench");
    url = embedded.serverUrl("bench");
  }
  const pool = createPool(url, 10);
  try {
    await migrate(pool);
    const sql = new Sql(pool);
    const earlier = process.env.BENCH_REUSE && process.env.BENCH_DATABASE_URL
      ? await sql.maybe<{ id: number }>("SELECT id FROM companies WHERE email = 'bench@bench.test'")
      : null;
    if (earlier) log(`BENCH_REUSE: company ${earlier.id} of an earlier run, not seeded again`);
    const seeded = earlier
      ? { companyId: earlier.id, adminEmail: "admin@bench.test", agentEmail: "agent1@bench.test" }
      : await timed("seed total", () => seed(sql));
    const counts = await sql.one<Record<string, number>>(
      ONLY_REPORTS
        ? `SELECT (SELECT count(*) FROM contacts WHERE company_id = $1) AS contacts, (SELECT count(*) FROM tickets WHERE company_id = $1) AS tickets,
                  (SELECT count(*) FROM ticket_traking WHERE company_id = $1) AS cycles`
        : `SELECT (SELECT count(*) FROM contacts) AS contacts, (SELECT count(*) FROM tickets) AS tickets, (SELECT count(*) FROM messages) AS messages,
              (SELECT count(*) FROM messages WHERE lower(body) LIKE '%${WORD}%') AS with_word,
              (SELECT count(DISTINCT ticket_id) FROM messages WHERE lower(body) LIKE '%${WORD}%') AS tickets_with_word`,
      ONLY_REPORTS ? [seeded.companyId] : [],
    );
    log("data", counts);
    const tagIds = await ensureTags(sql, seeded.companyId);
    // a rebuild of the roll-up (a migration, the seed, the tags just added) leaves its deltas as dead
    // rows that every compaction's index scan steps over until autovacuum passes: vacuumed now
    // the tagging's deltas folded in (the server's sweep would have), then the dead rows that left and
    // the statistics of every table it changed, as autovacuum (or the server's upkeep job) would have
    await timed("roll-up deltas folded in", () => sql.exec("SELECT ticket_rollup_compact($1), ticket_tag_rollup_compact($1), ticket_status_compact($1)", [seeded.companyId]));
    await timed("vacuum analyze after the tags", () => sql.exec("VACUUM ANALYZE"));

    // The server is a process of its own, so the client's work never shares its event loop; with
    // BENCH_EXPLAIN it runs in this process instead, whose pool records the queries to explain.
    let server: { base: string; pid?: number; stop(): Promise<void> };
    if (process.env.BENCH_EXPLAIN) {
      const config = { ...loadConfig({ ...BENCH_NO_REQUEST_LIMITS, NODE_ENV: "production", SECRETS_KEYS: TEST_SECRETS_KEYS, JWT_SECRET: "b".repeat(40), ADMIN_PASSWORD: "bench-admin-password" }), logLevel: "warn", webDist: "/nonexistent", runJobs: true, enableSandbox: true };
      const built = await buildApp(config, pool, url);
      await built.start();
      await built.app.listen({ port: 0, host: "127.0.0.1" });
      server = { base: `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`, stop: () => built.close() };
    } else {
      server = await startServerProcess({ databaseUrl: url, dataDir: dataDir ?? tmpDataDir("bench-server"), env: { ENABLE_SANDBOX: "true" } });
    }
    const base = server.base;
    const login = async (email: string) => {
      const res = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
      return ((await res.json()) as { token: string }).token;
    };
    const admin = await login(seeded.adminEmail);
    const agent = await login(seeded.agentEmail);
    const agent2q = await login("agent2q@bench.test");
    // the queue filter the web app sends: the agent's own queues
    const queuesOf = async (email: string) =>
      JSON.stringify(
        (await sql.many<{ queue_id: number }>("SELECT queue_id FROM user_queues WHERE user_id = (SELECT id FROM users WHERE email = $1) ORDER BY queue_id", [email])).map(
          (r) => r.queue_id,
        ),
      );
    const agent2qQueues = encodeURIComponent(await queuesOf("agent2q@bench.test"));
    const ticketIds = (await sql.many<{ id: number }>("SELECT id FROM tickets ORDER BY random() LIMIT 100")).map((r) => r.id);
    const fullPage = (body: unknown) => {
      const b = body as { tickets: unknown[]; hasMore: boolean };
      return b.hasMore && b.tickets.length !== 40 ? `short page: ${b.tickets.length} tickets with hasMore` : null;
    };

    const scenarios: Scenario[] = [
      { name: "GET /tickets open, first page (admin, showAll)", url: () => "/api/tickets?status=open&showAll=true&pageNumber=1", token: admin, check: fullPage },
      { name: "GET /tickets pending, first page (agent, own queue)", url: () => "/api/tickets?status=pending&pageNumber=1", token: agent, check: fullPage },
      { name: "GET /tickets closed, page 50 (admin)", url: () => "/api/tickets?status=closed&showAll=true&pageNumber=50", token: admin, check: fullPage },
      { name: "GET /messages/:ticketId page 1", url: (i) => `/api/messages/${ticketIds[i % ticketIds.length]}?pageNumber=1`, token: admin },
      {
        name: "GET /tickets open, first page, while agents send (ack jobs running)",
        url: () => "/api/tickets?status=open&showAll=true&pageNumber=1",
        token: admin,
        check: fullPage,
        background: async (stop) => {
          const open = (await sql.many<{ id: number }>("SELECT id FROM tickets WHERE status = 'open' ORDER BY id LIMIT 50")).map((r) => r.id);
          let i = 0;
          while (!stop()) {
            const res = await fetch(`${base}/api/messages/${open[i++ % open.length]}`, {
              method: "POST",
              headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
              body: JSON.stringify({ body: `mensagem de fundo ${i}`, sign: false }),
            });
            if (!res.ok) throw new Error(`background send: HTTP ${res.status} ${await res.text()}`);
            await new Promise((r) => setTimeout(r, 20));
          }
          return i;
        },
      },
    ];
    // The first page of an admin's search, computed from the messages and contacts themselves (not
    // through the tickets' search words): every word a word start, accents ignored, in one of the
    // ticket's messages or its contact's name or number; or the digits anywhere in the number.
    const expectedSearch = async (q: string) => {
      const words = q.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
      const rows = await sql.many<{ id: number }>(
        `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id
          WHERE t.company_id = $1
            AND ((SELECT bool_and(unaccent(lower(c.name)) ~ ('\\m' || w) OR c.number LIKE w || '%' OR substr(c.number, 3) LIKE w || '%' OR substr(c.number, 5) LIKE w || '%'
                                  OR EXISTS (SELECT 1 FROM messages m WHERE m.ticket_id = t.id AND unaccent(lower(m.body)) ~ ('\\m' || w)))
                   FROM unnest($2::text[]) w)
                 OR ($3 <> '' AND c.number LIKE '%' || $3 || '%'))
          ORDER BY t.updated_at DESC, t.id DESC LIMIT 40`,
        [seeded.companyId, words, /^[\d\s()+.-]+$/.test(q) && q.replace(/\D/g, "").length >= 3 ? q.replace(/\D/g, "") : ""],
      );
      return rows.map((r) => r.id);
    };
    const sameAsDatabase = (q: string) => {
      let expected: Promise<number[]> | null = null;
      return async (body: unknown) => {
        expected ??= expectedSearch(q);
        const got = (body as { tickets: { id: number }[] }).tickets.map((t) => t.id);
        const want = await expected;
        return JSON.stringify(got) === JSON.stringify(want) ? null : `search "${q}": got ${got.slice(0, 5).join(",")}… (${got.length}), expected ${want.slice(0, 5).join(",")}… (${want.length})`;
      };
    };
    const searches = (label: string): Scenario[] => [
      ...[WORD, MID_WORD, RARE_WORD].map((w) => ({ name: `${label} search "${w}" (admin)`, url: () => `/api/tickets?searchParam=${w}&showAll=true&pageNumber=1`, token: admin, check: sameAsDatabase(w) })),
      { name: `${label} search "${WORD}", page 5 (admin)`, url: () => `/api/tickets?searchParam=${WORD}&showAll=true&pageNumber=5`, token: admin, check: fullPage },
      ...[WORD, MID_WORD, RARE_WORD].map((w) => ({
        name: `${label} search "${w}" (agent, 2 queues, queue filter)`,
        url: () => `/api/tickets?searchParam=${w}&queueIds=${agent2qQueues}&pageNumber=1`,
        token: agent2q,
        check: fullPage,
      })),
      // phrases: every word required, anywhere in the ticket (a frequent pair, the frequent word with a common one)
      ...["prazo entrega", `${WORD} pedido`, `${MID_WORD} boleto`].map((w) => ({ name: `${label} search "${w}" (admin)`, url: () => `/api/tickets?searchParam=${encodeURIComponent(w)}&showAll=true&pageNumber=1`, token: admin, check: sameAsDatabase(w) })),
      { name: `${label} search "Olga" (contact name, admin)`, url: () => "/api/tickets?searchParam=Olga&showAll=true", token: admin, check: sameAsDatabase("Olga") },
      { name: `${label} search "Olga" (contact name, agent 2 queues)`, url: () => `/api/tickets?searchParam=Olga&queueIds=${agent2qQueues}`, token: agent2q, check: fullPage },
      { name: `${label} search "54321" (number digits, admin)`, url: () => "/api/tickets?searchParam=54321&showAll=true", token: admin, check: sameAsDatabase("54321") },
    ];
    scenarios.splice(1, 0, ...searches("before burst:"));
    if (process.env.BENCH_EXPLAIN) await explainScenarios(pool, base, scenarios);
    const results: Awaited<ReturnType<typeof measure>>[] = [];
    const run = async (list: Scenario[]) => {
      for (const s of list) {
        const r = await measure(base, s);
        results.push(r);
        log(`${r.name}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (load ${os.loadavg()[0]!.toFixed(1)})`);
      }
    };
    // the manager's pages over the whole seeded period (90 days, company time zone)
    const day = (daysAgo: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date(Date.now() - daysAgo * 86_400_000));
    const period = `date_from=${day(89)}&date_to=${day(0)}`;
    const oneQueue = (await sql.one<{ id: number }>("SELECT min(id) AS id FROM queues WHERE company_id = $1", [seeded.companyId])).id;
    const oneAgent = (await sql.one<{ id: number }>("SELECT min(id) AS id FROM users WHERE company_id = $1 AND profile = 'user'", [seeded.companyId])).id;
    const reports: Scenario[] = [
      { name: "GET /dashboard, 90 days (admin)", url: () => `/api/dashboard?${period}`, token: admin },
      { name: "GET /reports/summary, 90 days", url: () => `/api/reports/summary?${period}`, token: admin },
      { name: "GET /reports/volume, 90 days", url: () => `/api/reports/volume?${period}`, token: admin },
      ...(["agent", "queue", "tag", "connection"] as const).map((by) => ({ name: `GET /reports/breakdown by ${by}, 90 days`, url: () => `/api/reports/breakdown?by=${by}&${period}`, token: admin })),
      { name: "GET /reports/tickets page 1, 90 days", url: () => `/api/reports/tickets?${period}`, token: admin },
      // several filters, a filter on a breakdown: the per-group histograms
      { name: "GET /reports/summary, 90 days, agent + queue filters", url: () => `/api/reports/summary?${period}&userId=${oneAgent}&queueId=${oneQueue}`, token: admin },
      { name: "GET /reports/breakdown by agent, 90 days, queue filter", url: () => `/api/reports/breakdown?by=agent&${period}&queueId=${oneQueue}`, token: admin },
      // the ticket's present (status now, tag sets: migration 0790)
      { name: "GET /reports/summary, 90 days, status filter (pending)", url: () => `/api/reports/summary?${period}&status=pending`, token: admin },
      { name: "GET /reports/summary, 90 days, status filter (closed)", url: () => `/api/reports/summary?${period}&status=closed`, token: admin },
      { name: "GET /reports/volume, 90 days, status filter (closed)", url: () => `/api/reports/volume?${period}&status=closed`, token: admin },
      { name: "GET /reports/breakdown by agent, 90 days, status filter", url: () => `/api/reports/breakdown?by=agent&${period}&status=closed`, token: admin },
      { name: "GET /reports/summary, 90 days, tag + queue filters", url: () => `/api/reports/summary?${period}&tagId=${tagIds[0]}&queueId=${oneQueue}`, token: admin },
      { name: "GET /dashboard, 90 days, tag filter", url: () => `/api/dashboard?${period}&idTags=${tagIds[0]}`, token: admin },
      { name: "GET /dashboard, 90 days, two tags", url: () => `/api/dashboard?${period}&idTags=${tagIds[0]},${tagIds[1]}`, token: admin },
      // the reports' single-tag filter reads the per-tag roll-up (migration 0412)
      { name: "GET /reports/summary, 90 days, tag filter", url: () => `/api/reports/summary?${period}&tagId=${tagIds[0]}`, token: admin },
      // the present with two of the cycle's filters, breakdowns under the present with a cycle filter,
      // the breakdown by tag with filters: the present's per-group histograms (migration 0792)
      { name: "GET /reports/summary, 90 days, status + agent + queue filters", url: () => `/api/reports/summary?${period}&status=closed&userId=${oneAgent}&queueId=${oneQueue}`, token: admin },
      { name: "GET /reports/summary, 90 days, tag + queue + origin filters", url: () => `/api/reports/summary?${period}&tagId=${tagIds[0]}&queueId=${oneQueue}&origin=receptivo`, token: admin },
      { name: "GET /reports/breakdown by agent, 90 days, status + queue filters", url: () => `/api/reports/breakdown?by=agent&${period}&status=closed&queueId=${oneQueue}`, token: admin },
      { name: "GET /reports/breakdown by queue, 90 days, tag + origin filters", url: () => `/api/reports/breakdown?by=queue&${period}&tagId=${tagIds[0]}&origin=ativo`, token: admin },
      { name: "GET /reports/breakdown by tag, 90 days, status filter", url: () => `/api/reports/breakdown?by=tag&${period}&status=closed`, token: admin },
      { name: "GET /reports/breakdown by tag, 90 days, queue filter", url: () => `/api/reports/breakdown?by=tag&${period}&queueId=${oneQueue}`, token: admin },
      { name: "GET /reports/breakdown by tag, 90 days, tag filter", url: () => `/api/reports/breakdown?by=tag&${period}&tagId=${tagIds[0]}`, token: admin },
      { name: "GET /reports/breakdown by tag, 90 days, agent + origin filters", url: () => `/api/reports/breakdown?by=tag&${period}&userId=${oneAgent}&origin=receptivo`, token: admin },
      // read live by design: one day's hourly volume (one day of cycles), the drill-down lists (keyset pages)
      { name: "GET /reports/volume, one day (hourly)", url: () => `/api/reports/volume?date_from=${day(30)}&date_to=${day(30)}`, token: admin },
      { name: "GET /reports/volume, one day (hourly), status + tag filters", url: () => `/api/reports/volume?date_from=${day(30)}&date_to=${day(30)}&status=closed&tagId=${tagIds[1]}`, token: admin },
      { name: "GET /reports/tickets page 1, 90 days, status + tag + queue filters", url: () => `/api/reports/tickets?${period}&status=closed&tagId=${tagIds[2]}&queueId=${oneQueue}`, token: admin },
      { name: "GET /reports/tickets page 40, 90 days, resolved", url: () => `/api/reports/tickets?${period}&metric=resolved&page=40`, token: admin },
      { name: "GET /reports/tickets page 1, 90 days, CSAT rating 1, agent filter", url: () => `/api/reports/tickets?${period}&metric=csat&rating=1&userId=${oneAgent}`, token: admin },
    ];
    const sample = (await fetch(`${base}/api/reports/summary?${period}`, { headers: { authorization: `Bearer ${admin}` } }).then((r) => r.json())) as {
      created: number;
      resolved: number;
    };
    log(`reports summary over the period: ${JSON.stringify(sample).slice(0, 400)}`);
    // the roll-up's counts against the cycles themselves (the live definition), once
    const live = await sql.one<{ created: number; resolved: number }>(
      `SELECT count(*) FILTER (WHERE (queued_at AT TIME ZONE z) ::date BETWEEN $2::date AND $3::date)::int AS created,
              count(*) FILTER (WHERE (finished_at AT TIME ZONE z)::date BETWEEN $2::date AND $3::date)::int AS resolved
         FROM ticket_traking, (SELECT time_zone AS z FROM companies WHERE id = $1) c WHERE company_id = $1`,
      [seeded.companyId, day(89), day(0)],
    );
    if (live.created !== sample.created || live.resolved !== sample.resolved) throw new Error(`summary ${JSON.stringify(sample)} differs from the cycles ${JSON.stringify(live)}`);
    log(`summary checked against the cycles: ${live.created} created, ${live.resolved} resolved`);
    // the dashboard under two tags ("any of": a ticket counted once) against the cycles and tags themselves
    const dashTags = (await fetch(`${base}/api/dashboard?${period}&idTags=${tagIds[0]},${tagIds[1]}`, { headers: { authorization: `Bearer ${admin}` } }).then((r) =>
      r.json(),
    )) as { counters: { supportFinished: number; leads: number } };
    const liveTags = await sql.one<{ finished: number; leads: number }>(
      `SELECT (SELECT count(*) FROM ticket_traking tt, (SELECT time_zone AS z FROM companies WHERE id = $1) c
                WHERE tt.company_id = $1 AND (tt.finished_at AT TIME ZONE z)::date BETWEEN $2::date AND $3::date
                  AND EXISTS (SELECT 1 FROM ticket_tags g WHERE g.ticket_id = tt.ticket_id AND g.tag_id = ANY ($4::int[])))::int AS finished,
              (SELECT count(*) FROM contacts ct, (SELECT time_zone AS z FROM companies WHERE id = $1) c
                WHERE ct.company_id = $1 AND NOT ct.is_group AND (ct.created_at AT TIME ZONE z)::date BETWEEN $2::date AND $3::date
                  AND EXISTS (SELECT 1 FROM tickets t JOIN ticket_tags g ON g.ticket_id = t.id
                               WHERE t.company_id = $1 AND t.contact_id = ct.id AND g.tag_id = ANY ($4::int[])))::int AS leads`,
      [seeded.companyId, day(89), day(0), tagIds.slice(0, 2)],
    );
    if (dashTags.counters.supportFinished !== liveTags.finished || dashTags.counters.leads !== liveTags.leads) {
      throw new Error(`dashboard under two tags ${JSON.stringify(dashTags.counters)} differs from the cycles ${JSON.stringify(liveTags)}`);
    }
    log(`dashboard under two tags checked against the cycles: ${liveTags.finished} finished, ${liveTags.leads} leads`);
    // the breakdown by tag under a status filter (the tag sets unnested) against the cycles and tags themselves
    const byTag = (await fetch(`${base}/api/reports/breakdown?by=tag&${period}&status=closed`, { headers: { authorization: `Bearer ${admin}` } }).then((r) => r.json())) as {
      rows: { id: number; created: number }[];
    };
    const liveByTag = await sql.many<{ id: number; created: number }>(
      `SELECT g.tag_id AS id, count(*)::int AS created
         FROM ticket_traking tt JOIN tickets t ON t.id = tt.ticket_id JOIN ticket_tags g ON g.ticket_id = tt.ticket_id,
              (SELECT time_zone AS z FROM companies WHERE id = $1) c
        WHERE tt.company_id = $1 AND t.status = 'closed' AND (tt.queued_at AT TIME ZONE z)::date BETWEEN $2::date AND $3::date
        GROUP BY g.tag_id HAVING count(*) > 0 ORDER BY g.tag_id`,
      [seeded.companyId, day(89), day(0)],
    );
    const rolledByTag = byTag.rows.filter((r) => r.created > 0).map((r) => ({ id: r.id, created: r.created })).sort((a, b) => a.id - b.id);
    if (JSON.stringify(rolledByTag) !== JSON.stringify(liveByTag)) {
      throw new Error(`breakdown by tag under status closed ${JSON.stringify(rolledByTag)} differs from the cycles ${JSON.stringify(liveByTag)}`);
    }
    log(`breakdown by tag under status closed checked against the cycles: ${liveByTag.length} tags`);
    if (ONLY_REPORTS) {
      const webhooks = process.env.BENCH_WEBHOOK_LOAD ? await startWebhookLoad(url) : null;
      try {
        await run(reports);
      } finally {
        if (webhooks) log(`webhook load: ${await webhooks.stop()}`);
      }
      await measureCsvExports(base, admin, [
        { name: "CSV export, 90 days, CSAT rating 1 + agent filter", query: `${period}&metric=csat&rating=1&userId=${oneAgent}` },
        { name: "CSV export, 90 days, all resolved", query: `${period}&metric=resolved` },
      ]);
      console.log("\n| Scenario | p50 (ms) | p95 (ms) | p99 (ms) | load avg (1 min) |\n|---|---:|---:|---:|---:|");
      for (const r of results) console.log(`| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.load.toFixed(1)} |`);
      await server.stop();
      return;
    }
    // the burst: 2,000 tickets at random (returning customers) get a message without any marker word
    const burst = () =>
      timed("burst: 2,000 tickets at random get a new message", () =>
        sql.exec(
          `WITH recent AS (SELECT id, contact_id, whatsapp_id FROM tickets WHERE company_id = $1 ORDER BY random() LIMIT 2000),
                ins AS (INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, ack, read)
                        SELECT $1, id, contact_id, whatsapp_id, 'nova mensagem sem palavra marcada', false, 0, false FROM recent RETURNING ticket_id)
           UPDATE tickets SET updated_at = now() WHERE id IN (SELECT ticket_id FROM ins)`,
          [seeded.companyId],
        ),
      );
    if (ONLY_SEARCH) {
      // BENCH_SEARCH_RUNS runs back to back (4), each: every search interleaved, a burst, again
      const runs = Number(process.env.BENCH_SEARCH_RUNS ?? 4);
      const table: string[] = [];
      for (let r = 1; r <= runs; r++) {
        const before = await measureInterleaved(base, searches(""));
        await burst();
        const after = await measureInterleaved(base, searches(""));
        before.forEach((b, i) => {
          const a = after[i]!;
          const line = `| ${r} | ${b.name.trim()} | ${b.p50.toFixed(1)} / ${b.p95.toFixed(1)} | ${a.p50.toFixed(1)} / ${a.p95.toFixed(1)} | ${b.load.toFixed(1)}–${a.load.toFixed(1)} |`;
          table.push(line);
          log(line);
        });
      }
      console.log("\n| run | search | before: p50 / p95 (ms) | after the burst: p50 / p95 (ms) | load (1 min) |\n|---|---|---:|---:|---|");
      for (const line of table) console.log(line);
      await server.stop();
      return;
    }
    if (!process.env.BENCH_ONLY_THROUGHPUT) await run([...scenarios, ...reports]);
    const throughput = await listThroughput(
      base,
      admin,
      await sql.many<{ id: number }>("SELECT id FROM queues WHERE company_id = $1 ORDER BY id", [seeded.companyId]),
      server.pid,
      sql,
    );
    log(
      `GET /tickets open, first page, ${throughput.concurrency} clients at once (admin, queue filter): ${JSON.stringify(throughput.result)} (load ${os.loadavg()[0]!.toFixed(1)}); ` +
        `CPU ms per request ${JSON.stringify(throughput.cpuPerRequest)}, what two cores could serve: ${throughput.capacityOn2Cores}/s`,
    );
    if (process.env.BENCH_ONLY_THROUGHPUT) {
      await server.stop();
      return;
    }
    await burst();
    await run(searches("after burst:"));
    const acks = await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE from_me AND ack >= 3 AND body LIKE 'mensagem de fundo%'");
    log(`background messages delivered (ack 3) during the run: ${acks.n}`);
    console.log(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} (${os.cpus().length} CPUs)`);
    console.log("\n| Scenario | p50 (ms) | p95 (ms) | p99 (ms) |\n|---|---:|---:|---:|");
    for (const r of results) console.log(`| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} |`);
    await server.stop();
  } finally {
    // cleanup after the measurements: reported, never hiding the run's own failure
    await pool.end().catch((err: unknown) => console.warn("cleanup: could not close the pool", err));
    await embedded?.stop().catch((err: unknown) => console.warn("cleanup: could not stop the embedded PostgreSQL", err));
    if (dataDir) await rm(dataDir, { recursive: true, force: true }).catch((err: unknown) => console.warn("cleanup: could not remove the data directory", err));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
