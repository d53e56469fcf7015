import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import pg from "pg";
import type { LightMyRequestResponse } from "fastify";
import { buildApp, type BuiltApp } from "../src/app.js";
import { loadConfig, type Config } from "../src/config.js";
import { hashPassword } from "../src/core/password.js";
import { createPool, Sql } from "../src/db/sql.js";
import { seedFirstStart } from "../src/db/seed.js";

export interface TestApp extends BuiltApp {
  sql: Sql;
  pool: pg.Pool;
  databaseUrl: string;
  /** Listens on a loopback port (for socket.io tests) and returns its base URL. */
  listen(): Promise<string>;
  login(email: string, password?: string): Promise<string>;
  api(method: string, url: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
}

export const TEST_PASSWORD = "secret123";

/** A fresh database cloned from the migrated template, and the whole app on top of it. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const serverUrl = inject("dbServerUrl");
  const template = inject("dbTemplate");
  const name = `atende_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const config: Config = {
    ...loadConfig({ NODE_ENV: "test" }),
    adminEmail: "root@platform.test",
    adminPassword: TEST_PASSWORD,
    webDist: "/nonexistent",
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
      const res = await built.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
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
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
  return app;
}

let seq = 0;
const unique = (label: string) => `${label}-${process.pid}-${++seq}-${randomBytes(2).toString("hex")}`;

export interface PlanOverrides {
  users?: number;
  connections?: number;
  queues?: number;
  flags?: Partial<Record<"useCampaigns" | "useSchedules" | "useInternalChat" | "useExternalApi" | "useKanban" | "useOpenAi" | "useIntegrations", boolean>>;
}

export async function buildPlan(sql: Sql, o: PlanOverrides = {}): Promise<number> {
  const f = { useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true, ...o.flags };
  const row = await sql.one<{ id: number }>(
    `INSERT INTO plans (name, users, connections, queues, use_campaigns, use_schedules, use_internal_chat, use_external_api, use_kanban, use_open_ai, use_integrations)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) RETURNING id`,
    [unique("plan"), o.users ?? 0, o.connections ?? 0, o.queues ?? 0, f.useCampaigns, f.useSchedules, f.useInternalChat, f.useExternalApi, f.useKanban, f.useOpenAi, f.useIntegrations],
  );
  return row.id;
}

export async function buildCompany(sql: Sql, o: { dueDate?: string | null; plan?: PlanOverrides; name?: string } = {}): Promise<number> {
  const planId = await buildPlan(sql, o.plan);
  const row = await sql.one<{ id: number }>(
    `INSERT INTO companies (name, email, plan_id, due_date) VALUES ($1, $2, $3, $4) RETURNING id`,
    [o.name ?? unique("company"), `${unique("c")}@company.test`, planId, o.dueDate === undefined ? "2099-12-31" : o.dueDate],
  );
  return row.id;
}

export interface BuiltUser {
  id: number;
  email: string;
  companyId: number;
}

export async function buildUser(
  sql: Sql,
  companyId: number,
  o: { profile?: "admin" | "supervisor" | "user"; super?: boolean; name?: string; email?: string; queueIds?: number[]; allTicket?: "enable" | "disable" } = {},
): Promise<BuiltUser> {
  const email = o.email ?? `${unique("u")}@user.test`;
  const row = await sql.one<{ id: number }>(
    `INSERT INTO users (company_id, name, email, password_hash, profile, super, all_ticket) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id`,
    [companyId, o.name ?? "Test User", email, await cachedHash(), o.profile ?? "user", o.super ?? false, o.allTicket ?? "disable"],
  );
  for (const q of o.queueIds ?? []) {
    await sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1,$2,$3)", [companyId, row.id, q]);
  }
  return { id: row.id, email, companyId };
}

let hashPromise: Promise<string> | undefined;
const cachedHash = () => (hashPromise ??= hashPassword(TEST_PASSWORD));

export async function buildQueue(sql: Sql, companyId: number, o: { name?: string; color?: string } = {}): Promise<number> {
  const row = await sql.one<{ id: number }>("INSERT INTO queues (company_id, name, color) VALUES ($1,$2,$3) RETURNING id", [
    companyId,
    o.name ?? unique("Fila"),
    o.color ?? `#${randomBytes(3).toString("hex")}`,
  ]);
  return row.id;
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
