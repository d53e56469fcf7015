import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "./helper.js";
import { expectEvery } from "./expect-every.js";

/**
 * Tenancy and roles across the users, companies, plans, settings and helps routes: a user of
 * company A never reads or changes company B's rows, whatever ids they send, and each role is
 * refused what it may not do.
 */
let app: TestApp;
let a: Awaited<ReturnType<typeof buildTenant>>;
let b: Awaited<ReturnType<typeof buildTenant>>;
let queueB: number;
let snapshotB: unknown;
let helpId: number;
let planId: number;

const snapshot = async (companyId: number) => ({
  company: await app.sql.one("SELECT name, email, phone, plan_id, status, due_date, schedules FROM companies WHERE id = $1", [companyId]),
  users: await app.sql.many("SELECT id, name, email, profile, password_hash, token_version FROM users WHERE company_id = $1 ORDER BY id", [
    companyId,
  ]),
  queues: await app.sql.many("SELECT user_id, queue_id FROM user_queues WHERE company_id = $1 ORDER BY 1, 2", [companyId]),
  settings: await app.sql.many("SELECT key, value FROM settings WHERE company_id = $1 ORDER BY key", [companyId]),
});

beforeAll(async () => {
  app = await createTestApp();
  a = await buildTenant(app);
  b = await buildTenant(app);
  queueB = await buildQueue(app.sql, b.companyId);
  helpId = (await app.sql.one<{ id: number }>("INSERT INTO helps (title) VALUES ('Ajuda') RETURNING id")).id;
  planId = (await app.sql.one<{ plan_id: number }>("SELECT plan_id FROM companies WHERE id = $1", [b.companyId])).plan_id;
  snapshotB = await snapshot(b.companyId);
});
afterAll(async () => {
  await app.close();
});

type Case = [method: string, url: () => string, body?: () => unknown];

describe("tenancy: company A cannot reach company B", () => {
  const crossCompany: Case[] = [
    ["GET", () => `/api/users/${b.user.id}`],
    ["PUT", () => `/api/users/${b.user.id}`, () => ({ name: "Hijacked" })],
    ["PUT", () => `/api/users/${b.admin.id}`, () => ({ password: "hijacked1" })],
    ["DELETE", () => `/api/users/${b.user.id}`],
    ["POST", () => "/api/users/bulk-delete", () => ({ ids: [b.user.id, b.supervisor.id] })],
    ["GET", () => `/api/companies/${b.companyId}`],
    ["GET", () => `/api/companies/listPlan/${b.companyId}`],
    ["PUT", () => `/api/companies/${b.companyId}`, () => ({ name: "Hijacked Co" })],
    ["DELETE", () => `/api/companies/${b.companyId}`],
    ["PUT", () => `/api/companies/${b.companyId}/schedules`, () => ({ schedules: [] })],
    ["GET", () => "/api/companies/list"],
    ["PUT", () => `/api/plans/${planId}`, () => ({ users: 1 })],
    ["DELETE", () => `/api/plans/${planId}`],
  ];

  it.each(["admin", "supervisor", "user"] as const)("every by-id route answers 403 or 404 to B's ids (%s of A)", async (role) => {
    for (const [method, url, body] of crossCompany) {
      const res = await app.api(method, url(), { token: a[role].token, body: body?.() });
      expect([403, 404], `${role} ${method} ${url()} → ${res.statusCode} ${res.body}`).toContain(res.statusCode);
    }
  });

  it("lists never include B's rows, and B's company id or queues in a query do not widen them", async () => {
    const bIds = [b.admin.id, b.supervisor.id, b.user.id];
    const page = (await app.api("GET", "/api/users", { token: a.admin.token })).json();
    expect(page.users.some((u: { id: number }) => bIds.includes(u.id))).toBe(false);
    expectEvery(page.users, (u: { companyId: number }) => u.companyId === a.companyId);
    const byQueue = (await app.api("GET", `/api/users?queueIds=${encodeURIComponent(JSON.stringify([queueB]))}`, { token: a.admin.token })).json();
    expect(byQueue.users).toEqual([]);
    for (const role of ["admin", "supervisor", "user"] as const) {
      const names = (await app.api("GET", `/api/users/list?companyId=${b.companyId}`, { token: a[role].token })).json();
      expect(names.map((u: { id: number }) => u.id).some((id: number) => bIds.includes(id))).toBe(false);
      const companies = (await app.api("GET", "/api/companies", { token: a[role].token })).json();
      expect(companies.map((c: { id: number }) => c.id)).toEqual([a.companyId]);
      const settings = await app.api("GET", `/api/settings?companyId=${b.companyId}`, { token: a[role].token });
      expect(settings.statusCode).toBe(200);
    }
  });

  it("a company id or B's queue in a create body never lands a row in B", async () => {
    const created = await app.api("POST", "/api/users", {
      token: a.admin.token,
      body: { name: "Criado", email: `cross-${Date.now()}@tenancy.test`, password: "abcde", companyId: b.companyId },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().companyId).toBe(a.companyId);
    const withQueue = await app.api("POST", "/api/users", {
      token: a.admin.token,
      body: { name: "Criado", email: `cross-q-${Date.now()}@tenancy.test`, password: "abcde", queueIds: [queueB] },
    });
    expect(withQueue.statusCode).toBe(400);
    const assign = await app.api("PUT", `/api/users/${a.user.id}`, { token: a.admin.token, body: { queueIds: [queueB] } });
    expect(assign.statusCode).toBe(400);
    const setting = await app.api("PUT", "/api/settings/userRating", { token: a.admin.token, body: { value: "enabled", companyId: b.companyId } });
    expect(setting.statusCode).toBe(200);
  });

  it("left every row of company B untouched", async () => {
    expect(await snapshot(b.companyId)).toEqual(snapshotB);
    expect((await app.api("GET", "/api/auth/me", { token: b.admin.token })).statusCode).toBe(200);
  });
});

describe("roles on the administration routes", () => {
  // [method, url, body, status for user, supervisor, admin] — admins of an ordinary company are not super.
  const matrix: [string, () => string, (() => unknown) | undefined, number, number, number][] = [
    ["GET", () => "/api/users", undefined, 403, 403, 200],
    ["GET", () => "/api/users/list", undefined, 200, 200, 200],
    ["GET", () => `/api/users/${a.admin.id}`, undefined, 403, 403, 200],
    ["POST", () => "/api/users", () => ({ name: "", email: "" }), 403, 403, 400],
    ["PUT", () => `/api/users/${a.admin.id}`, () => ({ name: "Outro nome" }), 403, 403, 200],
    ["DELETE", () => `/api/users/${a.user.id}`, undefined, 403, 403, 403],
    ["POST", () => "/api/users/bulk-delete", () => ({ ids: [a.user.id] }), 403, 403, 403],
    ["GET", () => "/api/companies", undefined, 200, 200, 200],
    ["GET", () => "/api/companies/list", undefined, 403, 403, 403],
    ["GET", () => `/api/companies/${a.companyId}`, undefined, 200, 200, 200],
    ["GET", () => `/api/companies/listPlan/${a.companyId}`, undefined, 200, 200, 200],
    ["POST", () => "/api/companies", () => ({}), 403, 403, 403],
    ["PUT", () => `/api/companies/${a.companyId}`, () => ({ phone: "1" }), 403, 403, 403],
    ["DELETE", () => `/api/companies/${a.companyId}`, undefined, 403, 403, 403],
    ["PUT", () => `/api/companies/${a.companyId}/schedules`, () => ({ schedules: [] }), 403, 403, 200],
    ["GET", () => "/api/plans/list", undefined, 200, 200, 200],
    ["GET", () => "/api/plans/all", undefined, 403, 403, 403],
    ["GET", () => `/api/plans/${planId}`, undefined, 403, 403, 403],
    ["POST", () => "/api/plans", () => ({ name: "Plano X" }), 403, 403, 403],
    ["PUT", () => `/api/plans/${planId}`, () => ({ users: 2 }), 403, 403, 403],
    ["DELETE", () => `/api/plans/${planId}`, undefined, 403, 403, 403],
    ["GET", () => "/api/settings", undefined, 200, 200, 200],
    ["PUT", () => "/api/settings/userRating", () => ({ value: "disabled" }), 403, 403, 200],
    ["GET", () => "/api/helps", undefined, 200, 200, 200],
    ["GET", () => "/api/helps/list", undefined, 200, 200, 200],
    ["GET", () => `/api/helps/${helpId}`, undefined, 200, 200, 200],
    ["POST", () => "/api/helps", () => ({ title: "Nova" }), 403, 403, 403],
    ["PUT", () => `/api/helps/${helpId}`, () => ({ title: "Nova" }), 403, 403, 403],
    ["DELETE", () => `/api/helps/${helpId}`, undefined, 403, 403, 403],
  ];

  it("each role gets exactly its status on every route", async () => {
    const failures: string[] = [];
    for (const [method, url, body, ...expected] of matrix) {
      for (const [i, role] of (["user", "supervisor", "admin"] as const).entries()) {
        const res = await app.api(method, url(), { token: a[role].token, body: body?.() });
        if (res.statusCode !== expected[i]) failures.push(`${role} ${method} ${url()} → ${res.statusCode} (expected ${expected[i]}) ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
