/**
 * Real-time fan-out benchmark: how soon a customer's new message and a ticket update reach every
 * connected agent of one company, and whether any is lost.
 *
 *   nice npx tsx bench/realtime.ts                                     # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/realtime.ts   # an empty database you own
 *
 * Knobs: BENCH_AGENTS (connected agents, 2000), BENCH_EVENTS (customer messages, 40; each followed by
 * an agent accepting the ticket: a ticket update), BENCH_GAP_MS (between events, 250).
 *
 * With BENCH_WEB_PROCESSES=N (e.g. 2) the server runs instead as real processes of the built bundle:
 * one ROLE=worker (the sandbox session, jobs) and N ROLE=web processes on a Redis the bench starts
 * (redis-server must be installed); the agents' sockets are spread over the web processes, the
 * requests go to the first one, and every event crosses processes through the Redis adapter (a
 * customer's message is processed on the worker; the ticket update is emitted by web 1).
 *
 * Otherwise this process runs the real server (one process) on a fresh database: one company whose agents are
 * all in the queue of a connected sandbox connection, each with a session and an access token. The
 * agents' browsers are another process (bench/realtime-clients.ts), one socket.io connection per
 * agent over WebSocket. Each customer message goes in through the sandbox's inbound endpoint (the
 * real inbound pipeline) carrying its send time; the clients report, per event kind, the latency
 * from the request's start to each socket's receipt (p50/p95/p99/max over all sockets and events)
 * and how many of the expected receipts never came.
 */
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { createSession } from "../apps/server/src/core/sessions.js";
import { TokenService } from "../apps/server/src/core/tokens.js";
import { benchDatabase } from "./database.js";
import { migrate } from "../apps/server/src/db/migrate.js";
import { seedFirstStart } from "../apps/server/src/db/seed.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { buildCompany, buildQueue, buildUser, TEST_SECRETS_KEYS } from "../apps/server/test/factories.js";
import { BENCH_NO_REQUEST_LIMITS } from "./server-process.js";
import { startRedis, startServer, type ServerProcess } from "../apps/server/test/server-processes.js";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 2000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 40);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 250);
const WEB_PROCESSES = Number(process.env.BENCH_WEB_PROCESSES ?? 0);
const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const db = await benchDatabase("bench-realtime");
  const url = db.url;
  const pool = createPool(url, 20);
  let built: Awaited<ReturnType<typeof buildApp>> | undefined;
  const processes: ServerProcess[] = [];
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  try {
    await migrate(pool);
    const secret = "r".repeat(40);
    const config = {
      ...loadConfig({ ...BENCH_NO_REQUEST_LIMITS, NODE_ENV: "production", SECRETS_KEYS: TEST_SECRETS_KEYS, JWT_SECRET: secret, ADMIN_PASSWORD: "bench-admin-password", ADMIN_EMAIL: "admin@rt.test" }),
      logLevel: "warn",
      webDist: "/nonexistent",
      enableSandbox: true,
    };
    const sql = new Sql(pool);
    await seedFirstStart(sql, config);
    const companyId = await buildCompany(sql, { plan: { users: AGENTS + 10, connections: 5 } });
    const admin = await buildUser(sql, companyId, { profile: "admin", name: "Admin" });
    const queueId = await buildQueue(sql, companyId, { name: "Atendimento" });
    // the agents, in bulk (the same password hash: nobody logs in with it)
    const hash = (await sql.one<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = $1", [admin.id])).password_hash;
    const agents = await sql.many<{ id: number }>(
      `INSERT INTO users (company_id, name, email, password_hash, profile)
       SELECT $1, 'Agente ' || g, 'agente' || g || '@rt.test', $2, 'user' FROM generate_series(1, $3) g RETURNING id`,
      [companyId, hash, AGENTS],
    );
    await sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) SELECT $1, id, $2 FROM unnest($3::int[]) id", [
      companyId,
      queueId,
      agents.map((a) => a.id),
    ]);
    const tokens = new TokenService(secret, config.accessTokenTtlSeconds);
    const tokenOf = async (userId: number) => tokens.signAccess({ companyId, userId, sessionId: await createSession(sql, companyId, userId) });
    const agentTokens: string[] = [];
    for (const a of agents) agentTokens.push(await tokenOf(a.id));
    const adminToken = await tokenOf(admin.id);

    let base: string;
    let bases: string[] = [];
    if (WEB_PROCESSES > 0) {
      redis = await startRedis();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "bench-realtime-"));
      const opts = { databaseUrl: url, redisUrl: redis.url, dataDir, env: { JWT_SECRET: secret, LOG_LEVEL: "warn" } };
      processes.push(await startServer({ ...opts, name: "worker", role: "worker" }));
      for (let i = 0; i < WEB_PROCESSES; i++) processes.push(await startServer({ ...opts, name: `web-${i + 1}`, role: "web" }));
      bases = processes.filter((p) => p.role === "web").map((p) => p.base);
      base = bases[0]!;
      console.log(`one worker and ${WEB_PROCESSES} web processes (the built bundle) on Redis ${redis.url}`);
    } else {
      built = await buildApp(config, pool, url);
      await built.start();
      await built.app.listen({ port: 0, host: "127.0.0.1" });
      base = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    }
    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const wa = (await call("POST", "/api/whatsapp", { name: "Bench", provider: "sandbox", queueIds: [queueId], isDefault: true })).id as number;
    await call("POST", `/api/sandbox/${wa}/scan`);

    const tokensFile = path.join(os.tmpdir(), `bench-realtime-${process.pid}.json`);
    await writeFile(tokensFile, JSON.stringify({ base, bases, companyId, tokens: agentTokens }));
    const clients = spawn(path.join(here, "../node_modules/.bin/tsx"), [path.join(here, "realtime-clients.ts"), tokensFile], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines: string[] = [];
    const waitLine = (prefix: string) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = lines.find((l) => l.startsWith(prefix));
          if (found) resolve(found);
          else if (clients.exitCode !== null) reject(new Error(`clients exited (${clients.exitCode})`));
          else setTimeout(check, 50);
        };
        check();
      });
    let buffer = "";
    clients.stdout.on("data", (d: Buffer) => {
      buffer += d.toString();
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const l of parts) {
        lines.push(l);
        if (!l.startsWith("ready") && !l.startsWith("marked")) console.log(l);
      }
    });
    await waitLine("ready");
    console.log(`${AGENTS} agents connected; load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

    // how long the requests that cause the events take to answer (their emits run after the answer)
    const answered = { inbound: [] as number[], accept: [] as number[] };
    for (let i = 0; i < EVENTS; i++) {
      const sent = Date.now();
      const t0 = performance.now();
      const res = await call("POST", `/api/sandbox/${wa}/inbound`, { number: `55319${String(80000000 + i).padStart(8, "0")}`, name: `Cliente ${i}`, body: `bench ${sent}` });
      answered.inbound.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, GAP_MS / 2));
      clients.stdin.write(`update ${res.ticketId}\n`);
      await waitLine(`marked ${res.ticketId}`); // the clients know the update is coming before it is asked for
      clients.stdin.write(`start ${res.ticketId} ${Date.now()}\n`); // timed from here: the request's start
      const t1 = performance.now();
      await call("PUT", `/api/tickets/${res.ticketId}`, { status: "open", userId: admin.id });
      answered.accept.push(performance.now() - t1);
      await new Promise((r) => setTimeout(r, GAP_MS / 2));
    }
    await new Promise((r) => setTimeout(r, 3000));
    clients.stdin.write("report\n");
    await waitLine("done");
    const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((q / 100) * xs.length) - 1)]!.toFixed(1);
    for (const [what, xs] of Object.entries(answered)) console.log(`request answered (${what}): p50 ${p(xs, 50)} ms, p95 ${p(xs, 95)} ms`);
    console.log(`load at the end ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (${os.cpus().length} CPUs)`);
    clients.kill();
  } finally {
    for (const p of processes) await p.stop();
    await redis?.stop();
    await built?.close();
    await pool.end();
    await db.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
