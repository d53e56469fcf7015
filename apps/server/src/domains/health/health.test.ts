import { mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import pg from "pg";
import { pino } from "pino";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealStored } from "../../../test/factories.js";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { registerErrorHandler } from "../../core/http.js";
import { Metrics } from "../../core/metrics.js";
import { MIGRATIONS_DIR } from "../../db/migrate.js";
import { Sql } from "../../db/sql.js";
import { signBody } from "../webhooks/signature.js";
import { registerProbes } from "./probes.js";

/**
 * The operators' ends: /healthz, /readyz (draining after SIGTERM), /api/health, and /metrics (its
 * token, request latency by route pattern, job queues, webhook lag, sockets, the database pool).
 */
let app: TestApp;
/** Without job workers, so a queued job stays in its queue. */
let idle: TestApp;
const METRICS_TOKEN = "metrics-token-for-tests";

beforeAll(async () => {
  app = await createTestApp({ metricsToken: METRICS_TOKEN });
  idle = await createTestApp({ runJobs: false });
});
afterAll(async () => {
  await app?.close();
  await idle?.close();
});

/** The scrape's sample lines (`name{labels} value`), with the token. */
async function scrape(target: TestApp = app): Promise<string[]> {
  const res = await target.api("GET", "/metrics", { headers: target === app ? { authorization: `Bearer ${METRICS_TOKEN}` } : {} });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body.split("\n").filter((l) => l && !l.startsWith("#"));
}
const sample = (lines: string[], prefix: string) => {
  const line = lines.find((l) => l.startsWith(`${prefix} `));
  return line === undefined ? undefined : Number(line.slice(prefix.length + 1));
};

describe("health probes", () => {
  it("/healthz answers alive without a session", async () => {
    const res = await app.api("GET", "/healthz");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "alive" });
  });

  it("/readyz is ready with the database up, every migration applied and no Redis configured", async () => {
    const res = await app.api("GET", "/readyz");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", redis: "not configured" } });
  });

  it("keeps /api/health working", async () => {
    const res = await app.api("GET", "/api/health");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("/readyz is not ready while a migration of this version is not applied", async () => {
    // this version's migrations plus one more file the database has not seen
    const dir = await mkdtemp(path.join(tmpdir(), "atende-migrations-"));
    for (const f of await readdir(MIGRATIONS_DIR)) await symlink(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
    await writeFile(path.join(dir, "9999_not_yet.sql"), "SELECT 1;");
    const probe = Fastify();
    probe.setValidatorCompiler(validatorCompiler);
    probe.setSerializerCompiler(serializerCompiler);
    registerProbes(probe, app.ctx, { draining: false }, dir);
    const res = await probe.inject({ method: "GET", url: "/readyz" });
    await probe.close();
    await rm(dir, { recursive: true });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: "not ready", checks: { database: "ok", migrations: "failed", redis: "not configured" }, pendingMigrations: ["9999_not_yet.sql"] });
  });

  it("/readyz is not ready when the database does not answer; /healthz stays alive", async () => {
    // nothing listens on port 1: the real client fails to connect
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
    const probe = Fastify();
    probe.setValidatorCompiler(validatorCompiler);
    probe.setSerializerCompiler(serializerCompiler);
    registerProbes(probe, { ...app.ctx, sql: new Sql(pool) }, { draining: false });
    const ready = await probe.inject({ method: "GET", url: "/readyz" });
    const alive = await probe.inject({ method: "GET", url: "/healthz" });
    await probe.close();
    await pool.end();
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: "not ready", checks: { database: "failed", migrations: "failed" } });
    expect(alive.statusCode).toBe(200);
  });

  it("/readyz answers 503 draining once shutdown starts, while the server still answers requests", async () => {
    idle.drain();
    const res = await idle.api("GET", "/readyz");
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: "draining", checks: { database: "ok", migrations: "ok", redis: "not configured" } });
    expect((await idle.api("GET", "/healthz")).statusCode).toBe(200);
    expect((await idle.api("GET", "/api/health")).statusCode).toBe(200);
  });
});

describe("/metrics access", () => {
  it("with METRICS_TOKEN set, asks for it as a bearer token", async () => {
    const none = await app.api("GET", "/metrics");
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: "ERR_NO_PERMISSION" });
    const wrong = await app.api("GET", "/metrics", { headers: { authorization: "Bearer nope" } });
    expect(wrong.statusCode).toBe(401);
    expect(await scrape()).not.toHaveLength(0);
  });

  it("without METRICS_TOKEN, is open in development and test, and absent in production", async () => {
    expect((await idle.api("GET", "/metrics")).statusCode).toBe(200);
    const production = Fastify();
    production.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(production);
    new Metrics({ pool: app.pool, sql: app.sql, realtime: app.ctx.realtime, queues: () => [], log: pino({ level: "silent" }) }).registerRoute(production, {
      env: "production",
      metricsToken: undefined,
    });
    const res = await production.inject({ method: "GET", url: "/metrics" });
    await production.close();
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: "ERR_NOT_FOUND" });
  });
});

describe("/metrics content", () => {
  it("times requests by route pattern and status class, never by raw URL", async () => {
    const t = await buildTenant(app);
    const before = await scrape();
    const key = (status: string) => `atende_http_request_duration_seconds_count{method="GET",route="/api/tags/:id",status_class="${status}"}`;
    expect((await app.api("GET", "/api/tags/987654", { token: t.admin.token })).statusCode).toBe(404);
    expect((await app.api("GET", "/api/tags/987654")).statusCode).toBe(401);
    expect((await app.api("GET", "/api/tags/list", { token: t.admin.token })).statusCode).toBe(200);
    expect((await app.api("GET", "/api/no-such-route/123")).statusCode).toBe(404);
    const after = await scrape();
    expect((sample(after, key("4xx")) ?? 0) - (sample(before, key("4xx")) ?? 0)).toBe(2);
    expect(sample(after, `atende_http_request_duration_seconds_count{method="GET",route="/api/tags/list",status_class="2xx"}`)).toBe(1);
    expect(sample(after, `atende_http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"}`)).toBeGreaterThanOrEqual(1);
    expect(after.some((l) => l.includes("987654") || l.includes("no-such-route"))).toBe(false);
    expect(after.some((l) => l.startsWith('atende_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/tags/list",status_class="2xx"}'))).toBe(true);
  });

  it("shows each queue's due and scheduled jobs and the oldest due one's wait", async () => {
    await idle.ctx.jobs.send("official.webhook", { eventId: 1 });
    await idle.ctx.jobs.send("official.webhook", { eventId: 2 }, { startAfter: Date.now() + 3_600_000 });
    const lines = await scrape(idle);
    expect(sample(lines, 'atende_job_queue_depth{queue="official.webhook"}')).toBe(1);
    expect(sample(lines, 'atende_job_queue_scheduled{queue="official.webhook"}')).toBe(1);
    expect(sample(lines, 'atende_job_queue_oldest_age_seconds{queue="official.webhook"}')).toBeGreaterThanOrEqual(0);
    // a queue without jobs shows 0
    expect(sample(lines, 'atende_job_queue_depth{queue="contacts.import"}')).toBe(0);
  });

  it("shows the database pool, Node's process metrics and this process's sockets", async () => {
    const t = await buildTenant(app);
    const base = await app.listen();
    const socket: Socket = connect(base, { auth: { token: t.admin.token }, transports: ["websocket"], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    try {
      const lines = await scrape();
      expect(sample(lines, "atende_sockets_connected")).toBe(1);
      expect(sample(lines, 'atende_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(lines, 'atende_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(sample(lines, 'atende_db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
      expect(lines.some((l) => l.startsWith("process_resident_memory_bytes "))).toBe(true);
      expect(lines.some((l) => l.startsWith("nodejs_eventloop_lag_seconds "))).toBe(true);
    } finally {
      socket.close();
    }
  });

  it("times a Cloud API delivery from its receipt to the end of its processing", async () => {
    const companyId = (await buildTenant(app)).companyId;
    const business = await app.sql.one<{ id: number }>(
      "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'WABA lag', 'waba-lag', '', '', '') RETURNING id",
      [companyId],
    );
    await sealStored(app.sql, app.ctx.secrets, "businesses", business.id, { access_token: "t", app_secret: "lag-secret", verify_token: "v" });
    const before = sample(await scrape(), "atende_webhook_lag_seconds_count") ?? 0;
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: "waba-lag", changes: [] }] });
    const res = await app.app.inject({
      method: "POST",
      url: `/api/webhooks/whatsapp/${business.id}`,
      payload: body,
      headers: { "content-type": "application/json", "x-hub-signature-256": signBody("lag-secret", body) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const deadline = Date.now() + 10_000;
    let count = before;
    while (count === before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      count = sample(await scrape(), "atende_webhook_lag_seconds_count") ?? 0;
    }
    expect(count - before).toBe(1);
  });

  it("counts campaign sends per channel and outcome", async () => {
    app.ctx.metrics.countSends("sms", ["sent", "sent", "failed"]);
    const lines = await scrape();
    expect(sample(lines, 'atende_campaign_sends_total{channel="sms",outcome="sent"}')).toBeGreaterThanOrEqual(2);
    expect(sample(lines, 'atende_campaign_sends_total{channel="sms",outcome="failed"}')).toBeGreaterThanOrEqual(1);
  });
});

describe("request ids in jobs", () => {
  it("a job queued during a request carries the request's id in its payload", async () => {
    // without workers, the webhook POST queues its delivery as a job within the request
    const companyId = (await buildTenant(idle)).companyId;
    const business = await idle.sql.one<{ id: number }>(
      "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'WABA job', 'waba-job', '', '', '') RETURNING id",
      [companyId],
    );
    await sealStored(idle.sql, idle.ctx.secrets, "businesses", business.id, { access_token: "t", app_secret: "job-secret", verify_token: "v" });
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: "waba-job", changes: [] }] });
    const res = await idle.app.inject({
      method: "POST",
      url: `/api/webhooks/whatsapp/${business.id}`,
      payload: body,
      headers: { "content-type": "application/json", "x-hub-signature-256": signBody("job-secret", body) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const event = await idle.sql.one<{ id: string }>("SELECT id::text FROM webhook_events WHERE business_id = $1", [business.id]);
    const job = await idle.sql.one<{ data: Record<string, unknown> }>("SELECT data FROM pgboss.job WHERE name = 'official.webhook' AND singleton_key = $1", [`webhook-${event.id}`]);
    expect(job.data.eventId).toBe(Number(event.id));
    expect(job.data._requestId).toMatch(/^req-[0-9a-z]+$/);
  });
});
