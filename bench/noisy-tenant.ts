/**
 * One noisy company against the request limits: while company A floods the API through two server
 * processes, how long do company B's requests take, and what does A get back?
 *
 *   nice npx tsx bench/noisy-tenant.ts                                      # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://u@host/postgres nice npx tsx bench/noisy-tenant.ts   # a server where it may create a database
 *
 * Knobs (environment): NOISY_RATE (A's requests a second, sent on schedule whatever the answers, like a
 * script that ignores Retry-After, 400), NOISY_INFLIGHT (A's requests waiting at most, 64),
 * NOISY_SECONDS (each phase, 15), QUIET_RATE (B's requests a second, 10), NOISY_COMPANY_LIMIT
 * (RATE_LIMIT_COMPANY_PER_MINUTE in the limited phase, 300).
 *
 * It starts its own redis-server and two real server processes (the production bundle, REDIS_URL on
 * that Redis, TRUST_PROXY=true) on one fresh database with two companies of 4 users each, all signed in.
 * Company B asks for its ticket list (GET /api/tickets, 40 rows of its 200 tickets) at QUIET_RATE,
 * alternating processes, in three phases:
 *   1. quiet: B alone;
 *   2. flood, no limits: A asks for its own list at NOISY_RATE from a worker thread (RATE_LIMIT_* = 0);
 *   3. flood, limited: the same with A's company limited to NOISY_COMPANY_LIMIT a minute across both processes.
 * Phases 2 and 3 run on servers restarted with their settings. Prints B's p50/p95/p99 per phase, A's
 * answers by status, and the machine's load.
 */
import { rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { ensureDatabase, startEmbeddedPostgres, tmpDataDir, type EmbeddedDatabase } from "../apps/server/src/db/embedded.js";
import { migrate } from "../apps/server/src/db/migrate.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { buildCompany, buildUser, TEST_PASSWORD } from "../apps/server/test/factories.js";
import { startRedisServer as startRedis } from "../apps/server/test/redis-server.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";

const NOISY_RATE = Number(process.env.NOISY_RATE ?? 400);
const INFLIGHT = Number(process.env.NOISY_INFLIGHT ?? 64);
const SECONDS = Number(process.env.NOISY_SECONDS ?? 15);
const QUIET_RATE = Number(process.env.QUIET_RATE ?? 10);
const COMPANY_LIMIT = Number(process.env.NOISY_COMPANY_LIMIT ?? 300);
const LIST = "/api/tickets?pageNumber=1&status=open&showAll=true";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function get(base: string, url: string, token: string): Promise<{ status: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${url}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

async function login(base: string, email: string, address: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

interface Phase {
  name: string;
  quiet: number[];
  quietErrors: number;
  noisy: Record<number, number>;
}

/**
 * A's flood, in a worker thread (its own event loop, so its work does not delay B's timers): open loop,
 * NOISY_RATE requests a second on a fixed schedule whatever the answers, at most NOISY_INFLIGHT waiting
 * (beyond that a request is skipped and counted as status 0), like a script that ignores Retry-After.
 */
const FLOOD = `
const { workerData, parentPort } = require("node:worker_threads");
const http = require("node:http");
const { bases, tokens, url, rate, seconds, inflight } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: inflight });
const counts = {};
let waiting = 0;
const start = Date.now();
const until = start + seconds * 1000;
let i = 0;
function fire() {
  const now = Date.now();
  if (now >= until) return;
  const due = Math.floor(((now - start) * rate) / 1000);
  for (; i < due; i++) {
    if (waiting >= inflight) { counts[0] = (counts[0] || 0) + 1; continue; }
    waiting++;
    const req = http.get(bases[i % bases.length] + url, { agent, headers: { authorization: "Bearer " + tokens[i % tokens.length] } }, (res) => {
      res.resume();
      res.on("end", () => { waiting--; counts[res.statusCode] = (counts[res.statusCode] || 0) + 1; });
    });
    req.on("error", () => { waiting--; counts[-1] = (counts[-1] || 0) + 1; });
  }
  setTimeout(fire, 5);
}
fire();
const done = setInterval(() => {
  if (Date.now() >= until && waiting === 0) { clearInterval(done); agent.destroy(); parentPort.postMessage(counts); }
}, 20);
`;

async function runPhase(name: string, bases: string[], quietTokens: string[], noisyTokens: string[] | null): Promise<Phase> {
  const phase: Phase = { name, quiet: [], quietErrors: 0, noisy: {} };
  const until = Date.now() + SECONDS * 1000;
  const noisy = noisyTokens
    ? new Promise<void>((resolve, reject) => {
        const worker = new Worker(FLOOD, { eval: true, workerData: { bases, tokens: noisyTokens, url: LIST, rate: NOISY_RATE, seconds: SECONDS, inflight: INFLIGHT } });
        worker.once("message", (counts: Record<number, number>) => {
          phase.noisy = counts;
          void worker.terminate().then(() => resolve());
        });
        worker.once("error", reject);
      })
    : Promise.resolve();
  // B: one request every 1/QUIET_RATE s on its own schedule (not waiting for the previous answer)
  const quiet: Promise<void>[] = [];
  for (let i = 0; Date.now() < until; i++) {
    const due = until - SECONDS * 1000 + (i * 1000) / QUIET_RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    quiet.push(
      get(bases[i % bases.length]!, LIST, quietTokens[i % quietTokens.length]!).then(
        (r) => (r.status === 200 ? void phase.quiet.push(r.ms) : void phase.quietErrors++),
        () => void phase.quietErrors++,
      ),
    );
  }
  await Promise.all([noisy, ...quiet]);
  phase.quiet.sort((a, b) => a - b);
  return phase;
}

async function main() {
  let embedded: EmbeddedDatabase | undefined;
  const pgDir = tmpDataDir("bench-noisy");
  let serverUrl: (db: string) => string;
  if (process.env.BENCH_DATABASE_URL) {
    serverUrl = (db) => {
      const u = new URL(process.env.BENCH_DATABASE_URL!);
      u.pathname = `/${db}`;
      return u.toString();
    };
  } else {
    embedded = await startEmbeddedPostgres(pgDir, { persistent: false });
    serverUrl = embedded.serverUrl;
  }
  const dbName = `bench_noisy_${process.pid}`;
  await ensureDatabase(serverUrl("postgres"), dbName);
  const url = serverUrl(dbName);
  const pool = createPool(url, 4);
  const sql = new Sql(pool);
  const redis = await startRedis();
  const dataDir = path.join(os.tmpdir(), `bench-noisy-${process.pid}`);
  let servers: ServerProcess[] = [];
  const phases: Phase[] = [];
  try {
    await migrate(pool);
    const companies: { id: number; emails: string[] }[] = [];
    for (const name of ["Barulhenta", "Tranquila"]) {
      const id = await buildCompany(sql, { name });
      const emails: string[] = [];
      for (let u = 0; u < 4; u++) emails.push((await buildUser(sql, id, { profile: "admin", name: `${name} ${u}` })).email);
      // 200 open tickets each, so a list answer costs what a real one does
      await sql.exec(
        `WITH c AS (INSERT INTO contacts (company_id, name, number) SELECT $1, 'Cliente ' || g, '5511' || lpad((g + $1 * 100000)::text, 9, '0') FROM generate_series(1, 200) g RETURNING id)
         INSERT INTO tickets (company_id, contact_id, status, unread_messages) SELECT $1, id, 'open', 0 FROM c`,
        [id],
      );
      companies.push({ id, emails });
    }

    const start = async (env: Record<string, string>) => {
      await Promise.all(servers.map((s) => s.stop()));
      // NOISY_REDIS=0: each process counts in its own memory (the limit then holds per process)
      const common = { REDIS_URL: process.env.NOISY_REDIS === "0" ? "" : redis.url, TRUST_PROXY: "true", RUN_JOBS: "false", ...env };
      servers = [await startServerProcess({ databaseUrl: url, dataDir, env: common }), await startServerProcess({ databaseUrl: url, dataDir, env: common })];
      const bases = servers.map((s) => s.base);
      let n = 0;
      const tokens = async (emails: string[]) => Promise.all(emails.map((e) => login(bases[n % 2]!, e, `10.50.0.${++n}`)));
      const [noisy, quiet] = [await tokens(companies[0]!.emails), await tokens(companies[1]!.emails)];
      // warm-up: a few requests per process and company
      for (const b of bases) for (const t of [noisy[0]!, quiet[0]!]) for (let i = 0; i < 5; i++) await get(b, LIST, t);
      return { bases, noisy, quiet };
    };

    const off = { RATE_LIMIT_COMPANY_PER_MINUTE: "0", RATE_LIMIT_TOKEN_PER_MINUTE: "0" };
    let s = await start(off);
    phases.push(await runPhase("quiet (B alone)", s.bases, s.quiet, null));
    phases.push(await runPhase("flood, no limits", s.bases, s.quiet, s.noisy));
    s = await start({ RATE_LIMIT_COMPANY_PER_MINUTE: String(COMPANY_LIMIT), RATE_LIMIT_TOKEN_PER_MINUTE: "0" });
    phases.push(await runPhase(`flood, A limited to ${COMPANY_LIMIT}/min`, s.bases, s.quiet, s.noisy));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await redis.stop();
    await pool.end();
    const admin = new pg.Client({ connectionString: serverUrl("postgres") });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await embedded?.stop();
    await rm(pgDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }

  console.log(`\nA offers ${NOISY_RATE} requests/s (at most ${INFLIGHT} waiting; 0 = skipped, none free), B at ${QUIET_RATE}/s, ${SECONDS} s per phase, two server processes sharing one Redis; load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (1/5/15 min)`);
  console.log("| phase | B's requests | B p50 ms | B p95 ms | B p99 ms | B errors | A's answers (status: count) |");
  console.log("|---|---|---|---|---|---|---|");
  for (const p of phases) {
    const a = Object.entries(p.noisy).map(([k, v]) => `${k}: ${v}`).join(", ") || "—";
    console.log(`| ${p.name} | ${p.quiet.length} | ${pct(p.quiet, 50).toFixed(1)} | ${pct(p.quiet, 95).toFixed(1)} | ${pct(p.quiet, 99).toFixed(1)} | ${p.quietErrors} | ${a} |`);
  }
  agent.destroy();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
