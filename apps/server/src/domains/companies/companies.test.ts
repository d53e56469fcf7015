import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlan, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { trialDueDate } from "./signup.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let rootToken: string;
let platformId: number;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  other = await buildTenant(app);
  rootToken = await app.login("root@platform.test");
  platformId = (await app.sql.one<{ id: number }>("SELECT id FROM companies WHERE is_platform")).id;
});
afterAll(async () => {
  await app.close();
});

let seq = 0;
const companyBody = async (o: Record<string, unknown> = {}) => ({
  name: `Empresa ${++seq} ${Date.now()}`,
  email: `empresa-${seq}-${Date.now()}@companies.test`,
  phone: "11999990000",
  planId: await buildPlan(app.sql),
  password: "senha123",
  ...o,
});
let ipSeq = 0;
const freshIp = () => ({ "x-forwarded-for": `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });
/** Sign-up offers plans with a value: the body's plan costs R$ 49,90 a month. */
const signupBody = async (o: Record<string, unknown> = {}) => {
  const { name, email, phone, planId } = await companyBody();
  await app.sql.exec("UPDATE plans SET value = 49.9 WHERE id = $1", [planId]);
  return { name: name.slice(0, 50), userName: "Maria Fundadora", email, phone, planId, password: "abcde", ...o };
};

describe("companies: access", () => {
  it("refuses every private route without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/companies"],
      ["GET", "/api/companies/list"],
      ["GET", "/api/companies/1"],
      ["GET", "/api/companies/listPlan/1"],
      ["POST", "/api/companies"],
      ["PUT", "/api/companies/1"],
      ["DELETE", "/api/companies/1"],
      ["PUT", "/api/companies/1/schedules"],
    ] as const) {
      const res = await app.api(method, url, { body: method === "POST" || method === "PUT" ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("keeps create, update, delete and the full list to super administrators", async () => {
    for (const who of [t.admin, t.supervisor, t.user]) {
      for (const [method, url, body] of [
        ["GET", "/api/companies/list", undefined],
        ["POST", "/api/companies", await companyBody()],
        ["PUT", `/api/companies/${t.companyId}`, { name: "Renomeada" }],
        ["DELETE", `/api/companies/${t.companyId}`, undefined],
      ] as const) {
        const res = await app.api(method, url, { token: who.token, body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe("ERR_NO_PERMISSION");
      }
    }
  });

  it("shows a company only to itself and to super administrators", async () => {
    const own = await app.api("GET", "/api/companies", { token: t.user.token });
    expect(own.statusCode).toBe(200);
    expect(own.json().map((c: { id: number }) => c.id)).toEqual([t.companyId]);
    const one = await app.api("GET", `/api/companies/${t.companyId}`, { token: t.user.token });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: t.companyId, plan: expect.objectContaining({ useKanban: true }), schedules: [] });
    expect(one.json().settings).toEqual(expect.arrayContaining([{ key: "userCreation", value: "enabled" }]));
    const cross = await app.api("GET", `/api/companies/${other.companyId}`, { token: t.admin.token });
    expect(cross.statusCode).toBe(404);
    const plan = await app.api("GET", `/api/companies/listPlan/${other.companyId}`, { token: t.admin.token });
    expect(plan.statusCode).toBe(404);
    const all = await app.api("GET", "/api/companies", { token: rootToken });
    expect(all.json().map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([platformId, t.companyId, other.companyId]));
    const list = await app.api("GET", "/api/companies/list", { token: rootToken });
    expect(list.json().length).toBe(all.json().length);
    expect((await app.api("GET", `/api/companies/${other.companyId}`, { token: rootToken })).statusCode).toBe(200);
    expect((await app.api("GET", "/api/companies/999999", { token: rootToken })).statusCode).toBe(404);
  });

  it("listPlan returns the company's plan for its own users", async () => {
    const res = await app.api("GET", `/api/companies/listPlan/${t.companyId}`, { token: t.user.token });
    expect(res.statusCode).toBe(200);
    const planId = (await app.sql.one<{ plan_id: number }>("SELECT plan_id FROM companies WHERE id = $1", [t.companyId])).plan_id;
    expect(res.json()).toMatchObject({ id: t.companyId, planId, plan: { id: planId, users: 0, useCampaigns: true } });
  });
});

describe("companies: super administration", () => {
  it("creates a company and its first admin, who can log in", async () => {
    const body = await companyBody({ dueDate: "2099-01-01", recurrence: "TRIMESTRAL", campaignsEnabled: false });
    const res = await app.api("POST", "/api/companies", { token: rootToken, body });
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({ name: body.name, email: body.email, dueDate: "2099-01-01", recurrence: "TRIMESTRAL", status: true, campaignsEnabled: false });
    expect(JSON.stringify(c)).not.toMatch(/password|hash/i);
    const admin = await app.sql.one<{ name: string; profile: string; super: boolean }>(
      "SELECT name, profile, super FROM users WHERE company_id = $1",
      [c.id],
    );
    expect(admin).toEqual({ name: body.name, profile: "admin", super: false });
    const token = await app.login(body.email, "senha123");
    const settings = (await app.api("GET", "/api/settings", { token })).json();
    expect(settings).toEqual(expect.arrayContaining([{ key: "campaignsEnabled", value: "false" }]));
  });

  it("requires the admin password, a real plan, a free e-mail and a unique name", async () => {
    const { password: _p, ...noPassword } = await companyBody();
    const np = await app.api("POST", "/api/companies", { token: rootToken, body: noPassword });
    expect(np.statusCode).toBe(400);
    expect(np.json().fields).toMatchObject({ password: "Required" });
    const noPlan = await app.api("POST", "/api/companies", { token: rootToken, body: await companyBody({ planId: 999999 }) });
    expect(noPlan.statusCode).toBe(400);
    expect(noPlan.json().fields).toMatchObject({ planId: "Invalid" });
    const dupEmail = await app.api("POST", "/api/companies", { token: rootToken, body: await companyBody({ email: t.user.email }) });
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json().error).toBe("ERR_EMAIL_ALREADY_EXISTS");
    const name = (await app.sql.one<{ name: string }>("SELECT name FROM companies WHERE id = $1", [t.companyId])).name;
    const dupName = await app.api("POST", "/api/companies", { token: rootToken, body: await companyBody({ name }) });
    expect(dupName.statusCode).toBe(409);
    expect(dupName.json().error).toBe("ERR_VALIDATION");
    const noEmail = await app.api("POST", "/api/companies", { token: rootToken, body: await companyBody({ email: "" }) });
    expect(noEmail.statusCode).toBe(400);
  });

  it("updates a company, its admin's password (ending that session) and keeps absent fields", async () => {
    const tenant = await buildTenant(app);
    const email = (await app.sql.one<{ email: string }>("SELECT email FROM companies WHERE id = $1", [tenant.companyId])).email;
    await app.sql.exec("UPDATE users SET email = $2 WHERE id = $1", [tenant.admin.id, email]);
    const adminToken = await app.login(email);
    const newPlan = await buildPlan(app.sql, { users: 7 });
    const res = await app.api("PUT", `/api/companies/${tenant.companyId}`, {
      token: rootToken,
      body: { dueDate: "2098-05-05", planId: newPlan, status: false, password: "outrasenha" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: tenant.companyId, dueDate: "2098-05-05", planId: newPlan, status: false, email, plan: { users: 7 } });
    expect((await app.api("GET", "/api/auth/me", { token: adminToken })).statusCode).toBe(401);
    // Inactive: nobody of the company logs in until it is active again.
    const refused = await app.api("POST", "/api/auth/login", { body: { email, password: "outrasenha" } });
    expect(refused.json().error).toBe("ERR_COMPANY_INACTIVE");
    await app.api("PUT", `/api/companies/${tenant.companyId}`, { token: rootToken, body: { status: true } });
    expect(await app.login(email, "outrasenha")).toBeTruthy();
    const bad = await app.api("PUT", `/api/companies/${tenant.companyId}`, { token: rootToken, body: { planId: 999999 } });
    expect(bad.statusCode).toBe(400);
    expect((await app.api("PUT", "/api/companies/999999", { token: rootToken, body: { name: "X y" } })).statusCode).toBe(404);
  });

  it("protects the platform company: no due date change, no deletion", async () => {
    const due = await app.api("PUT", `/api/companies/${platformId}`, { token: rootToken, body: { dueDate: "2030-01-01" } });
    expect(due.statusCode).toBe(403);
    expect(due.json().error).toBe("ERR_CANNOT_UPDATE_SUPER_COMPANY_DUE_DATE");
    const off = await app.api("PUT", `/api/companies/${platformId}`, { token: rootToken, body: { status: false } });
    expect(off.statusCode).toBe(403);
    const rename = await app.api("PUT", `/api/companies/${platformId}`, { token: rootToken, body: { phone: "1133334444" } });
    expect(rename.statusCode).toBe(200);
    const del = await app.api("DELETE", `/api/companies/${platformId}`, { token: rootToken });
    expect(del.statusCode).toBe(403);
    expect(del.json().error).toBe("ERR_CANNOT_DELETE_SUPER_COMPANY");
  });

  it("deletes a company with its users", async () => {
    const tenant = await buildTenant(app);
    const res = await app.api("DELETE", `/api/companies/${tenant.companyId}`, { token: rootToken });
    expect(res.statusCode).toBe(200);
    expect(await app.sql.maybe("SELECT 1 FROM users WHERE company_id = $1", [tenant.companyId])).toBeNull();
    expect((await app.api("GET", "/api/auth/me", { token: tenant.admin.token })).statusCode).toBe(401);
    expect((await app.api("DELETE", `/api/companies/${tenant.companyId}`, { token: rootToken })).statusCode).toBe(404);
  });
});

describe("companies: schedules", () => {
  const schedules = [
    { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
    { weekday: "Domingo", weekdayEn: "sunday", startTime: "", endTime: "" },
  ];

  it("lets a company admin (or a super) set the company's hours, nobody else", async () => {
    const res = await app.api("PUT", `/api/companies/${t.companyId}/schedules`, { token: t.admin.token, body: { schedules } });
    expect(res.statusCode).toBe(200);
    expect(res.json().schedules).toEqual(schedules);
    const bySup = await app.api("PUT", `/api/companies/${t.companyId}/schedules`, { token: t.supervisor.token, body: { schedules } });
    expect(bySup.statusCode).toBe(403);
    const cross = await app.api("PUT", `/api/companies/${other.companyId}/schedules`, { token: t.admin.token, body: { schedules } });
    expect(cross.statusCode).toBe(404);
    expect((await app.api("GET", `/api/companies/${other.companyId}`, { token: rootToken })).json().schedules).toEqual([]);
    const bySuper = await app.api("PUT", `/api/companies/${other.companyId}/schedules`, { token: rootToken, body: { schedules } });
    expect(bySuper.statusCode).toBe(200);
    const bad = await app.api("PUT", `/api/companies/${t.companyId}/schedules`, {
      token: t.admin.token,
      body: { schedules: [{ ...schedules[0], startTime: "25:00" }] },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("sign-up", () => {
  it("creates an active company on the super administrator's trial (7 days by default), whatever the body says; the admin gets the person's name", async () => {
    const body = await signupBody({ dueDate: "2099-12-31", status: false, recurrence: "ANUAL", campaignsEnabled: false });
    const res = await app.api("POST", "/api/companies/cadastro", { body, headers: freshIp() });
    expect(res.statusCode).toBe(200);
    // Today + 7 (UTC), counted here rather than by the function under test.
    const in7 = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    expect(res.json()).toEqual({ id: expect.any(Number), name: body.name, email: body.email, dueDate: in7 });
    const row = await app.sql.one("SELECT due_date, status, recurrence, campaigns_enabled, plan_id, phone FROM companies WHERE id = $1", [res.json().id]);
    expect(row).toEqual({ due_date: in7, status: true, recurrence: "MENSAL", campaigns_enabled: true, plan_id: body.planId, phone: body.phone });
    const admin = await app.sql.one("SELECT name, profile, super FROM users WHERE email = $1", [body.email]);
    expect(admin).toEqual({ name: "Maria Fundadora", profile: "admin", super: false });
    const login = await app.api("POST", "/api/auth/login", { body: { email: body.email, password: "abcde" } });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.name).toBe("Maria Fundadora");
  });

  it("takes the trial length the super administrator set", async () => {
    const put = await app.api("PUT", "/api/billing/signup-settings", { token: rootToken, body: { trialDays: 3, planId: null } });
    expect(put.statusCode).toBe(200);
    try {
      const res = await app.api("POST", "/api/companies/cadastro", { body: await signupBody(), headers: freshIp() });
      expect(res.json().dueDate).toBe(new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10));
    } finally {
      await app.api("PUT", "/api/billing/signup-settings", { token: rootToken, body: { trialDays: 7, planId: null } });
    }
  });

  it("refuses a plan of no value (it could never be paid for) and asks for the person's name", async () => {
    const free = await buildPlan(app.sql);
    const res = await app.api("POST", "/api/companies/cadastro", { body: await signupBody({ planId: free }), headers: freshIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_PLAN_NOT_OFFERED");
    const noName = await app.api("POST", "/api/companies/cadastro", { body: await signupBody({ userName: "" }), headers: freshIp() });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fields).toMatchObject({ userName: "Required" });
  });

  it("the trial's due date is counted from the UTC date", () => {
    expect(trialDueDate(1, new Date("2024-02-28T23:59:00Z"))).toBe("2024-02-29");
    expect(trialDueDate(7, new Date("2024-12-31T00:00:00Z"))).toBe("2025-01-07");
  });

  it("validates with the form messages and refuses a used e-mail", async () => {
    const bad = await app.api("POST", "/api/companies/cadastro", {
      body: { name: "A", email: "x", password: "1234", phone: "", planId: "" },
      headers: freshIp(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ name: "Too Short!", email: "Invalid email", password: "Too Short!" });
    const long = await app.api("POST", "/api/companies/cadastro", { body: await signupBody({ name: "n".repeat(51), password: "p".repeat(51) }), headers: freshIp() });
    expect(long.json().fields).toMatchObject({ name: "Too Long!", password: "Too Long!" });
    const dup = await app.api("POST", "/api/companies/cadastro", { body: await signupBody({ email: t.admin.email }), headers: freshIp() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_EMAIL_ALREADY_EXISTS");
    const noPlan = await app.api("POST", "/api/companies/cadastro", { body: await signupBody({ planId: 999999 }), headers: freshIp() });
    expect(noPlan.statusCode).toBe(400);
  });

  it("is refused when the platform's userCreation setting is disabled", async () => {
    const put = await app.api("PUT", "/api/settings/userCreation", { token: rootToken, body: { value: "disabled" } });
    expect(put.statusCode).toBe(200);
    const body = await signupBody();
    const res = await app.api("POST", "/api/companies/cadastro", { body, headers: freshIp() });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_USER_CREATION_DISABLED");
    expect(await app.sql.maybe("SELECT 1 FROM users WHERE email = $1", [body.email])).toBeNull();
    // A tenant's own setting does not govern sign-up.
    await app.api("PUT", "/api/settings/userCreation", { token: rootToken, body: { value: "enabled" } });
    await app.api("PUT", "/api/settings/userCreation", { token: t.admin.token, body: { value: "disabled" } });
    expect((await app.api("POST", "/api/companies/cadastro", { body: await signupBody(), headers: freshIp() })).statusCode).toBe(200);
  });

  it("is rate limited to 5 a minute per address", async () => {
    const headers = { "x-forwarded-for": "192.0.2.77" };
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await app.api("POST", "/api/companies/cadastro", { body: { name: "x" }, headers })).statusCode);
    expect(codes.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(codes[5]).toBe(429);
    expect((await app.api("POST", "/api/companies/cadastro", { body: { name: "x" }, headers: freshIp() })).statusCode).toBe(400);
  });
});
