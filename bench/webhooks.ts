/**
 * Cloud API webhook benchmark (issue 4, item 7): signed Meta-shaped webhook deliveries posted on
 * loopback to the real server, measured end to end.
 *
 *   nice npx tsx bench/webhooks.ts                               # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/webhooks.ts   # an empty database you own
 *
 * Knobs (environment): BENCH_MESSAGES (20000), BENCH_BATCH (messages per delivery, 10),
 * BENCH_CONCURRENCY (requests in flight, 50), BENCH_CONTACTS (distinct customers, 2000),
 * BENCH_SECONDS (time limit for posting, 120), BENCH_RATE (messages/s offered; 0 = as fast as accepted),
 * BENCH_NEW_CONTACTS=1 (one customer per message: every message is a first one, new contact and ticket).
 *
 * It seeds one company with an admin, starts a fake Graph API (apps/server/test/fake-graph) and the
 * real server (all domains, job workers on) with WHATSAPP_GRAPH_URL on the fake, creates and syncs a
 * business with one official number through the API, connects a socket.io client as the admin
 * (an agent who sees every ticket), then posts the deliveries and reports:
 *   - accepted/s: messages in deliveries answered 200 per second of posting;
 *   - persisted/s: messages stored (rows in `messages`) per second from the first post until the last row;
 *   - latency: from the POST of a message's delivery to its `company-{id}-appMessage` create event at
 *     the agent's socket (p50/p95/p99/max).
 */
import { createHmac, randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { io } from "socket.io-client";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { hashPassword } from "../apps/server/src/core/password.js";
import { ensureDatabase, startEmbeddedPostgres, tmpDataDir, type EmbeddedDatabase } from "../apps/server/src/db/embedded.js";
import { migrate } from "../apps/server/src/db/migrate.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { FakeGraph } from "../apps/server/test/fake-graph/server.js";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
// BENCH_NEW_CONTACTS=1: one customer per message, every message a first one (phase 1 only)
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? (process.env.BENCH_NEW_CONTACTS ? MESSAGES : 2000));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
/** Offered load in messages per second (0: as fast as the server answers). */
const RATE = Number(process.env.BENCH_RATE ?? 0);
const PASSWORD = "bench-password";
const PHONE_DIGITS = "5511955550000";

const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

async function seed(sql: Sql): Promise<{ companyId: number; email: string }> {
  const plan = await sql.one<{ id: number }>("INSERT INTO plans (name, connections, users, queues) VALUES ('Bench', 10, 10, 10) RETURNING id");
  const company = await sql.one<{ id: number }>(
    "INSERT INTO companies (name, email, plan_id, due_date) VALUES ('Bench Co', 'bench@bench.test', $1, '2099-12-31') RETURNING id",
    [plan.id],
  );
  await sql.exec(
    "INSERT INTO users (company_id, name, email, password_hash, profile, all_ticket) VALUES ($1, 'Bench Admin', 'admin@bench.test', $2, 'admin', 'enable')",
    [company.id, await hashPassword(PASSWORD)],
  );
  return { companyId: company.id, email: "admin@bench.test" };
}

async function main() {
  let embedded: EmbeddedDatabase | undefined;
  let url = process.env.BENCH_DATABASE_URL;
  const pgDir = tmpDataDir("bench-webhooks");
  const mediaDir = tmpDataDir("bench-webhooks-media");
  if (!url) {
    embedded = await startEmbeddedPostgres(pgDir, { persistent: false });
    await ensureDatabase(embedded.serverUrl("postgres"), "bench");
    url = embedded.serverUrl("bench");
  }
  const pool = createPool(url, 20); // as main.ts
  const profile = new Map<string, { n: number; ms: number }>();
  if (process.env.BENCH_PROFILE) {
    // BENCH_PROFILE=1: every statement of the app's pool, counted and timed (printed at the end)
    const original = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
    (pool as unknown as { query: (...a: unknown[]) => Promise<unknown> }).query = async (...args: unknown[]) => {
      const key = typeof args[0] === "string" ? args[0].replace(/\s+/g, " ").slice(0, 110) : "?";
      const start = performance.now();
      try {
        return await original(...args);
      } finally {
        const e = profile.get(key) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += performance.now() - start;
        profile.set(key, e);
      }
    };
  }
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
  const sockets: ReturnType<typeof io>[] = [];
  let built: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrate(pool);
    const sql = new Sql(pool);
    const seeded = await seed(sql);
    const config = {
      ...loadConfig({ NODE_ENV: "production", JWT_SECRET: "b".repeat(40), ADMIN_PASSWORD: "bench-admin-password" }),
      logLevel: "warn",
      webDist: "/nonexistent",
      runJobs: true,
      whatsappGraphUrl: fake.url,
      dataDir: mediaDir,
    };
    built = await buildApp(config, pool, url);
    await built.start();
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
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

    // the agent: a socket.io client receiving appMessage events
    const arrivals = new Map<string, number>();
    const socket = io(base, { auth: { token }, transports: ["websocket"] });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    socket.on(`company-${seeded.companyId}-appMessage`, (p: { action: string; message: { body: string } }) => {
      if (p.action === "create" && !arrivals.has(p.message.body)) arrivals.set(p.message.body, performance.now());
    });

    // the deliveries: BATCH messages each, from CONTACTS customers in turn
    const contacts = Array.from({ length: CONTACTS }, (_, i) => `55319${String(10000000 + i).padStart(8, "0")}`);
    const deliveries: { raw: string; bodies: string[] }[] = [];
    for (let i = 0; i < MESSAGES; i += BATCH) {
      const bodies: string[] = [];
      const messages = [];
      const people = new Map<string, string>();
      for (let j = i; j < Math.min(MESSAGES, i + BATCH); j++) {
        const from = contacts[j % CONTACTS]!;
        const body = `bench ${j} ${randomBytes(3).toString("hex")}`;
        bodies.push(body);
        people.set(from, `Cliente ${j % CONTACTS}`);
        messages.push({ from, id: `wamid.${randomBytes(18).toString("base64url")}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body } });
      }
      const payload = {
        object: "whatsapp_business_account",
        entry: [
          {
            id: fake.wabaId,
            changes: [
              {
                field: "messages",
                value: {
                  messaging_product: "whatsapp",
                  metadata: { display_phone_number: PHONE_DIGITS, phone_number_id: fake.phones[0]!.id },
                  contacts: [...people].map(([wa_id, name]) => ({ profile: { name }, wa_id })),
                  messages,
                },
              },
            ],
          },
        ],
      };
      deliveries.push({ raw: JSON.stringify(payload), bodies });
    }
    const sentAt = new Map<string, number>();
    const webhookUrl = `${base}/api/webhooks/whatsapp/${businessId}`;
    const sign = (raw: string) => `sha256=${createHmac("sha256", fake.appSecret).update(raw).digest("hex")}`;
    const r = (n: number) => n.toFixed(1);
    const deadline = Date.now() + SECONDS * 1000;
    let storedBefore = 0;

    /** Posts deliveries (CONCURRENCY in flight, paced at RATE), waits until all are stored and seen by the agent, prints the figures. */
    const phase = async (name: string, list: typeof deliveries) => {
      const postTimes: number[] = [];
      let next = 0;
      let accepted = 0;
      let refused = 0;
      const bodies = new Set(list.flatMap((d) => d.bodies));
      log(`${name}: posting ${bodies.size} messages in ${list.length} deliveries of ${BATCH}, ${CONCURRENCY} at a time${RATE ? `, ${RATE}/s offered` : ""}`);
      const t0 = performance.now();
      const worker = async () => {
        while (next < list.length && Date.now() < deadline) {
          const i = next++;
          const d = list[i]!;
          if (RATE > 0) {
            const wait = t0 + ((i * BATCH) / RATE) * 1000 - performance.now();
            if (wait > 0) await new Promise((res) => setTimeout(res, wait));
          }
          const start = performance.now();
          for (const b of d.bodies) sentAt.set(b, start);
          const res = await fetch(webhookUrl, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": sign(d.raw) }, body: d.raw });
          await res.arrayBuffer();
          postTimes.push(performance.now() - start);
          if (res.status === 200) accepted += d.bodies.length;
          else refused += d.bodies.length;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const postedMs = performance.now() - t0;
      const waitUntil = Date.now() + 300_000;
      let stored = 0;
      let storedMs = 0;
      let seen = 0;
      while (Date.now() < waitUntil) {
        stored = (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE whatsapp_id = $1", [number.whatsapp_id])).n - storedBefore;
        storedMs = performance.now() - t0;
        seen = [...bodies].filter((b) => arrivals.has(b)).length;
        if (stored >= accepted && seen >= accepted) break;
        await new Promise((res) => setTimeout(res, 50));
      }
      storedBefore += stored;
      const mine = [...bodies].filter((b) => arrivals.has(b)).map((b) => ({ at: arrivals.get(b)!, sent: sentAt.get(b)! }));
      const lastArrival = Math.max(...mine.map((m) => m.at));
      const latencies = mine.map((m) => m.at - m.sent).sort((a, b) => a - b);
      postTimes.sort((a, b) => a - b);
      console.log(`\n${name}`);
      console.log(`  messages accepted         ${accepted} (${refused} refused) in ${list.length} deliveries of ${BATCH}`);
      console.log(`  accepted/s                ${r(accepted / (postedMs / 1000))}  (POST p50 ${r(percentile(postTimes, 50))} ms, p95 ${r(percentile(postTimes, 95))} ms)`);
      console.log(`  persisted/s               ${r(stored / (storedMs / 1000))}  (${stored} rows in ${r(storedMs / 1000)} s)`);
      console.log(`  delivered to agent/s      ${r(seen / ((lastArrival - t0) / 1000))}  (${seen} appMessage events)`);
      console.log(
        `  POST → appMessage (ms)    p50 ${r(percentile(latencies, 50))}  p95 ${r(percentile(latencies, 95))}  p99 ${r(percentile(latencies, 99))}  max ${r(latencies.at(-1) ?? NaN)}`,
      );
      if (process.env.BENCH_TIMELINE) {
        // per second of sending
        const buckets = new Map<number, number[]>();
        for (const m of mine) {
          const k = Math.floor((m.sent - t0) / 1000);
          buckets.set(k, [...(buckets.get(k) ?? []), m.at - m.sent]);
        }
        for (const [k, v] of [...buckets].sort((a, b) => a[0] - b[0])) {
          v.sort((a, b) => a - b);
          console.log(`    t=${k}s n=${v.length} p50 ${r(percentile(v, 50))} p95 ${r(percentile(v, 95))} max ${r(v.at(-1)!)}`);
        }
      }
    };

    // Phase 1: every customer's first message (a new ticket each: the per-message pipeline with routing).
    // Phase 2: the rest, on existing tickets (the batched path) — the sustained load of a busy number.
    const opening = Math.ceil(Math.min(CONTACTS, MESSAGES) / BATCH);
    await phase(`Phase 1: ${Math.min(CONTACTS, MESSAGES)} first messages (new tickets)`, deliveries.slice(0, opening));
    if (deliveries.length > opening) await phase(`Phase 2: ${MESSAGES - Math.min(CONTACTS, MESSAGES)} messages on existing tickets`, deliveries.slice(opening));

    const events = await sql.one<{ pending: number; failed: number; processed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'processed')::int AS processed FROM webhook_events`,
    );
    const tickets = (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM tickets")).n;
    if (profile.size) {
      console.log("\nStatements (count, total ms, mean ms)");
      for (const [k, v] of [...profile].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30)) {
        console.log(`  ${String(v.n).padStart(7)} ${v.ms.toFixed(0).padStart(8)} ${(v.ms / v.n).toFixed(2).padStart(6)}  ${k}`);
      }
    }
    console.log(`\n  webhook events            processed ${events.processed}, failed ${events.failed}, pending ${events.pending}; tickets ${tickets}`);
  } finally {
    for (const s of sockets) s.close();
    await built?.close().catch(() => undefined);
    await fake.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
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
