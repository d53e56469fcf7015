import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCompany, buildPlan, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let rootToken: string;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  rootToken = await app.login("root@platform.test");
});
afterAll(async () => {
  await app.close();
});

let seq = 0;
const name = () => `Plano ${++seq} ${Date.now()}`;

describe("plans: access", () => {
  it("serves /plans/list publicly with the minimal fields only", async () => {
    const res = await app.api("GET", "/api/plans/list");
    expect(res.statusCode).toBe(200);
    const plans = res.json() as Record<string, unknown>[];
    expect(plans.length).toBeGreaterThan(0);
    for (const p of plans) expect(Object.keys(p).sort()).toEqual(["connections", "id", "name", "queues", "users", "value"]);
    expect(plans.map((p) => p.name)).toContain("Plano Padrão");
  });

  it("refuses the other routes without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/plans/all"],
      ["GET", "/api/plans/1"],
      ["POST", "/api/plans"],
      ["PUT", "/api/plans/1"],
      ["DELETE", "/api/plans/1"],
    ] as const) {
      const res = await app.api(method, url, { body: method === "POST" || method === "PUT" ? { name: "x" } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("keeps everything else to super administrators", async () => {
    const id = await buildPlan(app.sql);
    for (const who of [t.admin, t.supervisor, t.user]) {
      for (const [method, url, body] of [
        ["GET", "/api/plans/all", undefined],
        ["GET", `/api/plans/${id}`, undefined],
        ["POST", "/api/plans", { name: name() }],
        ["PUT", `/api/plans/${id}`, { name: name() }],
        ["DELETE", `/api/plans/${id}`, undefined],
      ] as const) {
        const res = await app.api(method, url, { token: who.token, body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe("ERR_NO_PERMISSION");
      }
    }
  });
});

describe("plans: super administration", () => {
  it("creates with the documented defaults (limits 0, value 0, every flag on)", async () => {
    const n = name();
    const res = await app.api("POST", "/api/plans", { token: rootToken, body: { name: n } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: n,
      users: 0,
      connections: 0,
      queues: 0,
      value: 0,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
    const all = await app.api("GET", "/api/plans/all", { token: rootToken });
    expect(all.json().map((p: { id: number }) => p.id)).toContain(res.json().id);
    expect((await app.api("GET", `/api/plans/${res.json().id}`, { token: rootToken })).json().name).toBe(n);
  });

  it("validates and refuses a duplicate name", async () => {
    const bad = await app.api("POST", "/api/plans", { token: rootToken, body: { name: "", users: -1, value: "abc" } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(expect.arrayContaining(["name", "users", "value"]));
    const n = name();
    await app.api("POST", "/api/plans", { token: rootToken, body: { name: n } });
    const dup = await app.api("POST", "/api/plans", { token: rootToken, body: { name: n } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_VALIDATION");
  });

  it("updates only the fields sent; the change reaches the plan's companies", async () => {
    const planId = await buildPlan(app.sql, { users: 3 });
    await app.sql.exec("UPDATE companies SET plan_id = $1 WHERE id = $2", [planId, t.companyId]);
    const res = await app.api("PUT", `/api/plans/${planId}`, { token: rootToken, body: { value: 99.9, useKanban: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ users: 3, value: 99.9, useKanban: false, useCampaigns: true });
    const me = await app.api("GET", "/api/auth/me", { token: t.user.token });
    expect(me.json().company.plan.useKanban).toBe(false);
    expect((await app.api("PUT", "/api/plans/999999", { token: rootToken, body: { value: 1 } })).statusCode).toBe(404);
    expect((await app.api("GET", "/api/plans/999999", { token: rootToken })).statusCode).toBe(404);
  });

  it("deletes an unused plan and refuses one in use", async () => {
    const companyId = await buildCompany(app.sql);
    const used = (await app.sql.one<{ plan_id: number }>("SELECT plan_id FROM companies WHERE id = $1", [companyId])).plan_id;
    const refused = await app.api("DELETE", `/api/plans/${used}`, { token: rootToken });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: "ERR_VALIDATION", companies: 1 });
    expect(refused.json().message).toMatch(/em uso/);
    const free = await buildPlan(app.sql);
    expect((await app.api("DELETE", `/api/plans/${free}`, { token: rootToken })).statusCode).toBe(200);
    expect((await app.api("DELETE", `/api/plans/${free}`, { token: rootToken })).statusCode).toBe(404);
  });
});
