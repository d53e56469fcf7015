import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import pg from "pg";
import type { LightMyRequestResponse } from "fastify";
import { buildApp, type BuiltApp } from "../src/app.js";
import { loadConfig, type Config } from "../src/config.js";
import { parseKeyRing } from "../src/core/secrets/key-ring.js";
import { createPool, Sql } from "../src/db/sql.js";
import { seedFirstStart } from "../src/db/seed.js";
import { buildCompany, buildUser, TEST_PASSWORD, TEST_SECRETS_KEYS, type PlanOverrides } from "./factories.js";

export * from "./factories.js";

export interface TestApp extends BuiltApp {
  sql: Sql;
  pool: pg.Pool;
  databaseUrl: string;
  /** Listens on a loopback port (for socket.io tests) and returns its base URL. */
  listen(): Promise<string>;
  login(email: string, password?: string): Promise<string>;
  api(method: string, url: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
}


let loginCount = 1;

/** A fresh database cloned from the migrated template (dropped with the run's others at teardown): its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject("dbServerUrl");
  const template = inject("dbTemplate");
  const name = `atende_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Drops a database of createTestDatabase (best effort: the global teardown drops whatever this left behind). */
export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const c = new pg.Client({ connectionString: inject("dbServerUrl") });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err: unknown) => console.warn(`test teardown: could not drop ${name}`, err));
  await c.end();
}

/** A fresh database cloned from the migrated template, and the whole app on top of it. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const databaseUrl = await createTestDatabase();
  const config: Config = {
    ...loadConfig({ NODE_ENV: "test" }),
    adminEmail: "root@platform.test",
    adminPassword: TEST_PASSWORD,
    webDist: "/nonexistent",
    secretsKeys: parseKeyRing(TEST_SECRETS_KEYS),
    // Tests stand for several client addresses through X-Forwarded-For.
    trustProxy: true,
    ...overrides,
  };
  const pool = createPool(databaseUrl, 5);
  const sql = new Sql(pool);
  await seedFirstStart(sql, config);
  const built = await buildApp(config, pool, databaseUrl);
  await built.start();
  await built.app.ready();

  const app: TestApp = {
    ...built,
    sql,
    pool,
    databaseUrl,
    async listen() {
      await built.app.listen({ port: 0, host: "127.0.0.1" });
      const addr = built.app.server.address() as AddressInfo;
      return `http://127.0.0.1:${addr.port}`;
    },
    async login(email, password = TEST_PASSWORD) {
      // Each test login stands for its own client address, so the per-address login limits and the
      // hashing queue's per-address share (core/password.ts) do not throttle a test file's many logins.
      const address = `10.${(loginCount >> 16) & 255}.${(loginCount >> 8) & 255}.${loginCount++ & 255}`;
      const res = await built.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email, password },
        headers: { "x-forwarded-for": address },
      });
      if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.body}`);
      return res.json().token as string;
    },
    api(method, url, opts = {}) {
      return built.app.inject({
        method: method as "GET",
        url,
        payload: opts.body as object | undefined,
        headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
      });
    },
    async close() {
      await built.close();
      await pool.end();
      await dropTestDatabase(databaseUrl);
    },
  };
  return app;
}

/** A company with an admin, a supervisor and a plain user, all logged in. */
export async function buildTenant(app: TestApp, o: { plan?: PlanOverrides; dueDate?: string | null } = {}) {
  const companyId = await buildCompany(app.sql, o);
  const admin = await buildUser(app.sql, companyId, { profile: "admin", name: "Admin" });
  const supervisor = await buildUser(app.sql, companyId, { profile: "supervisor", name: "Supervisor" });
  const user = await buildUser(app.sql, companyId, { profile: "user", name: "Agent" });
  return {
    companyId,
    admin: { ...admin, token: await app.login(admin.email) },
    supervisor: { ...supervisor, token: await app.login(supervisor.email) },
    user: { ...user, token: await app.login(user.email) },
  };
}

/** The campaign sends the app's metrics counted for a channel so far, by outcome (GET /metrics's atende_campaign_sends_total). */
export async function sendsCounted(app: TestApp, channel: "whatsapp" | "sms" | "email"): Promise<{ sent: number; failed: number; retry: number }> {
  const counts = { sent: 0, failed: 0, retry: 0 };
  const metric = await app.ctx.metrics.registry.getSingleMetric("atende_campaign_sends_total")?.get();
  for (const v of metric?.values ?? []) if (v.labels.channel === channel) counts[v.labels.outcome as keyof typeof counts] += v.value;
  return counts;
}
