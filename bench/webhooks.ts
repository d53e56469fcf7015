/**
 * Cloud API webhook benchmark: signed Meta-shaped webhook deliveries posted on
 * loopback to the real server, measured end to end.
 *
 *   nice npx tsx bench/webhooks.ts                               # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/webhooks.ts   # an empty database you own
 *
 * Knobs (environment): BENCH_MESSAGES (20000), BENCH_BATCH (messages per delivery, 10),
 * BENCH_CONCURRENCY (requests in flight, 50), BENCH_CONTACTS (distinct customers, 2000),
 * BENCH_SECONDS (time limit for posting, 120), BENCH_RATE (messages/s offered; 0 = as fast as accepted),
 * BENCH_NEW_CONTACTS=1 (one customer per message: every message is a first one, new contact and ticket),
 * BENCH_TIMELINE=1 (latency per second), BENCH_RUNS (4: runs back to back on the same database, its
 * history growing), BENCH_RETURNING (0.5: the share of a later run's customers who wrote in an earlier
 * run, their tickets closed meanwhile), BENCH_PG_STATS=1 (PostgreSQL's own execution time per
 * statement, embedded database only).
 *
 * Measured as an outside client would: the server is a process of its own (the bundle `npm start`
 * runs, production settings, job workers on; bench/server-process.ts) with WHATSAPP_GRAPH_URL on a
 * fake Graph API (apps/server/test/fake-graph) in this process; Meta and the agent's browser are a
 * third process (webhooks-load.ts). It seeds one company with an admin, creates and syncs a business
 * with one official number through the API, connects a socket.io client as the admin (an agent who
 * sees every ticket), then posts each run's deliveries (random customers, random texts) and reports,
 * per phase, with the machine's load average beside it:
 *   - accepted/s: messages in deliveries answered 200 per second of posting;
 *   - persisted/s: messages stored (rows in `messages`) per second from the first post until the last row;
 *   - latency: from the POST of a message's delivery to its `company-{id}-appMessage` create event at
 *     the agent's socket (p50/p95/p99/max).
 */
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { fork } from "node:child_process";
import { hashPassword } from "../apps/server/src/core/password.js";
import { ensureDatabase, startEmbeddedPostgres, tmpDataDir, type EmbeddedDatabase } from "../apps/server/src/db/embedded.js";
import { migrate } from "../apps/server/src/db/migrate.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { FakeGraph } from "../apps/server/test/fake-graph/server.js";
import type { LoadSettings } from "./webhooks-load.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
// BENCH_NEW_CONTACTS=1: one customer per message, every message a first one (phase 1 only)
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? (process.env.BENCH_NEW_CONTACTS ? MESSAGES : 2000));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
/** Offered load in messages per second (0: as fast as the server answers). */
const RATE = Number(process.env.BENCH_RATE ?? 0);
const PASSWORD = "bench-password";
const PG_STATS = Boolean(process.env.BENCH_PG_STATS);
const RUNS = Number(process.env.BENCH_RUNS ?? 4);
const RETURNING = Number(process.env.BENCH_RETURNING ?? 0.5);
const PHONE_DIGITS = "5511955550000";

const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);

/**
 * BENCH_NAME_SUFFIX: appended to the plan's and company's names and the admin's address, so the load
 * can run in a database another bench seeded (bench/tickets.ts BENCH_WEBHOOK_LOAD=1).
 */
const SUFFIX = process.env.BENCH_NAME_SUFFIX ?? "";

async function seed(sql: Sql): Promise<{ companyId: number; email: string }> {
  const plan = await sql.one<{ id: number }>("INSERT INTO plans (name, connections, users, queues) VALUES ($1, 10, 10, 10) RETURNING id", [`Bench${SUFFIX}`]);
  const company = await sql.one<{ id: number }>(
    "INSERT INTO companies (name, email, plan_id, due_date) VALUES ($1, $2, $3, '2099-12-31') RETURNING id",
    [`Bench Co${SUFFIX}`, `bench${SUFFIX}@bench.test`, plan.id],
  );
  const email = `admin${SUFFIX}@bench.test`;
  await sql.exec("INSERT INTO users (company_id, name, email, password_hash, profile, all_ticket) VALUES ($1, 'Bench Admin', $2, $3, 'admin', 'enable')", [
    company.id,
    email,
    await hashPassword(PASSWORD),
  ]);
  return { companyId: company.id, email };
}

async function main() {
  let embedded: EmbeddedDatabase | undefined;
  let url = process.env.BENCH_DATABASE_URL;
  const pgDir = tmpDataDir("bench-webhooks");
  const mediaDir = tmpDataDir("bench-webhooks-media");
  if (!url) {
    // BENCH_PG_STATS=1: the server's own view of every statement (pg_stat_statements), printed at the end
    const settings = PG_STATS ? { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } : undefined;
    embedded = await startEmbeddedPostgres(pgDir, { persistent: false, settings });
    await ensureDatabase(embedded.serverUrl("postgres"), "bench");
    url = embedded.serverUrl("bench");
  }
  const pool = createPool(url, 4);
  const fake = await FakeGraph.start({ pageSize: 50 });
  fake.phones = [
    {
      id: "109000000000001",
      display_phone_number: "+55 11 95555-0000",
      verified_name: "Loja Bench",
      quality_rating: "GREEN",
      messaging_limit_tier: "TIER_100K",
      status: "CONNECTED",
      name_status: "APPROVED",
      code_verification_status: "VERIFIED",
      health_status: { can_send_message: "AVAILABLE", entities: [] },
    },
  ];
  let server: ServerProcess | undefined;
  try {
    await migrate(pool);
    const sql = new Sql(pool);
    const seeded = await seed(sql);
    server = await startServerProcess({ databaseUrl: url, dataDir: mediaDir, env: { WHATSAPP_GRAPH_URL: fake.url } });
    const base = server.base;
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: seeded.email, password: PASSWORD }),
    });
    const token = ((await login.json()) as { token: string }).token;
    const business = await call("POST", "/api/businesses", token, {
      name: "Conta Bench",
      wabaId: fake.wabaId,
      accessToken: fake.accessToken,
      appSecret: fake.appSecret,
      verifyToken: "bench-verify",
    });
    const businessId = business.id as number;
    await call("POST", `/api/businesses/${businessId}/sync`, token);
    const number = await sql.one<{ whatsapp_id: number; status: string }>(
      "SELECT n.whatsapp_id, w.status FROM official_numbers n JOIN whatsapps w ON w.id = n.whatsapp_id WHERE n.business_id = $1",
      [businessId],
    );
    log(`official number on connection ${number.whatsapp_id} (${number.status})`);

    // Meta and the agent's browser: another process (see webhooks-load.ts)
    const settings: LoadSettings = {
      base,
      token,
      databaseUrl: url,
      companyId: seeded.companyId,
      whatsappId: number.whatsapp_id,
      businessId,
      appSecret: fake.appSecret,
      wabaId: fake.wabaId,
      phoneNumberId: fake.phones[0]!.id,
      phoneDigits: PHONE_DIGITS,
      messages: MESSAGES,
      batch: BATCH,
      concurrency: CONCURRENCY,
      contacts: CONTACTS,
      seconds: SECONDS,
      rate: RATE,
      runs: RUNS,
      returning: RETURNING,
      timeline: Boolean(process.env.BENCH_TIMELINE),
    };
    const load = fork(fileURLToPath(new URL("./webhooks-load.ts", import.meta.url)), {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, BENCH_LOAD: JSON.stringify(settings) },
    });
    const code = await new Promise<number | null>((resolve) => load.once("exit", resolve));
    if (code !== 0) throw new Error("the load process failed");

    const events = await sql.one<{ pending: number; failed: number; processed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'processed')::int AS processed FROM webhook_events`,
    );
    const tickets = (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM tickets")).n;
    if (PG_STATS && embedded) {
      await sql.exec("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      const rows = await sql.many<{ calls: number; total: number; mean: number; query: string }>(
        `SELECT calls::int, total_exec_time::float8 AS total, mean_exec_time::float8 AS mean, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
           FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 25`,
      );
      console.log("\nPostgreSQL execution (calls, total ms, mean ms)");
      for (const r of rows) console.log(`  ${String(r.calls).padStart(7)} ${r.total.toFixed(0).padStart(8)} ${r.mean.toFixed(2).padStart(6)}  ${r.query}`);
    }
    console.log(`\n  webhook events            processed ${events.processed}, failed ${events.failed}, pending ${events.pending}; tickets ${tickets}`);
  } finally {
    // cleanup after the measurements: reported, never hiding the run's own failure
    await server?.stop().catch((err: unknown) => console.warn("cleanup: could not stop the server", err));
    await fake.close().catch((err: unknown) => console.warn("cleanup: could not close the fake Graph API", err));
    await pool.end().catch((err: unknown) => console.warn("cleanup: could not close the pool", err));
    await embedded?.stop().catch((err: unknown) => console.warn("cleanup: could not stop the embedded PostgreSQL", err));
    await rm(pgDir, { recursive: true, force: true });
    await rm(mediaDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
