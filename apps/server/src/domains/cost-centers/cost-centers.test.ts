import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const create = async (token: string, name: string) => {
  const res = await app.api("POST", "/api/sms/cost-center/", { token, body: { name } });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number; name: string };
};

describe("cost centers: access", () => {
  it("needs a session, supervisor or above, the plan's useCampaigns and the company's campaignsEnabled", async () => {
    const t = await buildTenant(app);
    expect((await app.api("GET", "/api/sms/cost-center/")).statusCode).toBe(401);
    const asUser = await app.api("GET", "/api/sms/cost-center/", { token: t.user.token });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().error).toBe("ERR_NO_PERMISSION");
    expect((await app.api("POST", "/api/sms/cost-center/", { token: t.user.token, body: { name: "X" } })).statusCode).toBe(403);
    expect((await app.api("GET", "/api/sms/cost-center/", { token: t.supervisor.token })).statusCode).toBe(200);
    expect((await app.api("POST", "/api/sms/cost-center/", { token: t.supervisor.token, body: { name: "Vendas" } })).statusCode).toBe(200);

    const noPlan = await buildTenant(app, { plan: { flags: { useCampaigns: false } } });
    const planRes = await app.api("GET", "/api/sms/cost-center/", { token: noPlan.admin.token });
    expect(planRes.statusCode).toBe(403);
    expect(planRes.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");

    const off = await buildTenant(app);
    expect((await app.api("PUT", "/api/settings/campaignsEnabled", { token: off.admin.token, body: { value: "false" } })).statusCode).toBe(200);
    for (const [m, url] of [
      ["GET", "/api/sms/cost-center/"],
      ["POST", "/api/sms/cost-center/"],
      ["GET", "/api/sms/cost-center/1/"],
      ["PUT", "/api/sms/cost-center/1/"],
    ] as const) {
      const res = await app.api(m, url, { token: off.admin.token, body: m === "GET" ? undefined : { name: "X" } });
      expect(res.statusCode, `${m} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_FEATURE_DISABLED");
    }
    expect((await app.api("PUT", "/api/settings/campaignsEnabled", { token: off.admin.token, body: { value: "true" } })).statusCode).toBe(200);
    expect((await app.api("GET", "/api/sms/cost-center/", { token: off.admin.token })).statusCode).toBe(200);
  });

  it("never shows or changes another company's cost center (404)", async () => {
    const a = await buildTenant(app);
    const b = await buildTenant(app);
    const cc = await create(a.admin.token, "Financeiro A");
    expect((await app.api("GET", "/api/sms/cost-center/", { token: b.admin.token })).json()).toEqual({ results: [], count: 0 });
    const get = await app.api("GET", `/api/sms/cost-center/${cc.id}/`, { token: b.admin.token });
    expect(get.statusCode).toBe(404);
    expect(get.json().error).toBe("ERR_NO_COST_CENTER_FOUND");
    expect((await app.api("PUT", `/api/sms/cost-center/${cc.id}/`, { token: b.admin.token, body: { name: "Tomado" } })).statusCode).toBe(404);
    expect((await app.api("GET", `/api/sms/cost-center/${cc.id}`, { token: a.admin.token })).json()).toEqual({ id: cc.id, name: "Financeiro A" });
  });
});

describe("cost centers: create, edit, search and pages", () => {
  it("validates the name with the spec's messages", async () => {
    const t = await buildTenant(app);
    for (const [body, message] of [
      [{}, "Required"],
      [{ name: "" }, "Required"],
      [{ name: "   " }, "Required"],
      [{ name: "x".repeat(65) }, "Too Long!"],
      [{ name: 12 }, "Required"],
    ] as const) {
      const res = await app.api("POST", "/api/sms/cost-center/", { token: t.admin.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields.name).toBe(message);
    }
    const cc = await create(t.admin.token, `  ${"y".repeat(64)}  `);
    expect(cc.name).toBe("y".repeat(64));
    const put = await app.api("PUT", `/api/sms/cost-center/${cc.id}/`, { token: t.admin.token, body: { name: "z".repeat(65) } });
    expect(put.statusCode).toBe(400);
    expect(put.json().fields.name).toBe("Too Long!");
  });

  it("creates and renames, with and without the trailing slash", async () => {
    const t = await buildTenant(app);
    const res = await app.api("POST", "/api/sms/cost-center", { token: t.admin.token, body: { name: "Marketing" } });
    expect(res.statusCode).toBe(200);
    const id = res.json().id as number;
    expect(res.json()).toEqual({ id, name: "Marketing" });
    const put = await app.api("PUT", `/api/sms/cost-center/${id}`, { token: t.supervisor.token, body: { name: "Marketing digital" } });
    expect(put.json()).toEqual({ id, name: "Marketing digital" });
    expect((await app.api("GET", `/api/sms/cost-center/${id}/`, { token: t.supervisor.token })).json()).toEqual({ id, name: "Marketing digital" });
    const missing = await app.api("PUT", "/api/sms/cost-center/999999/", { token: t.admin.token, body: { name: "Nada" } });
    expect(missing.statusCode).toBe(404);
  });

  it("searches by part of the name (case-insensitive) and pages 40 at a time", async () => {
    const t = await buildTenant(app);
    for (let i = 1; i <= 45; i++) await create(t.admin.token, `Loja ${String(i).padStart(2, "0")}`);
    await create(t.admin.token, "Cobrança");
    await create(t.admin.token, "COBRANÇA judicial");
    await create(t.admin.token, "50%_desconto");

    const first = (await app.api("GET", "/api/sms/cost-center/", { token: t.admin.token })).json();
    expect(first.count).toBe(48);
    expect(first.results).toHaveLength(40);
    const second = (await app.api("GET", "/api/sms/cost-center/?page=2", { token: t.admin.token })).json();
    expect(second.count).toBe(48);
    expect(second.results).toHaveLength(8);
    const ids = new Set([...first.results, ...second.results].map((r: { id: number }) => r.id));
    expect(ids.size).toBe(48);

    const search = (await app.api("GET", "/api/sms/cost-center/?name=cobran", { token: t.admin.token })).json();
    expect(search).toMatchObject({ count: 2 });
    expect(search.results.map((r: { name: string }) => r.name)).toEqual(["Cobrança", "COBRANÇA judicial"]);
    const lojas = (await app.api("GET", "/api/sms/cost-center/?name=loja%204&page=1", { token: t.admin.token })).json();
    expect(lojas.results.map((r: { name: string }) => r.name)).toEqual(["Loja 40", "Loja 41", "Loja 42", "Loja 43", "Loja 44", "Loja 45"]);
    // % and _ are letters in a search, not wildcards
    const literal = (await app.api("GET", `/api/sms/cost-center/?name=${encodeURIComponent("%_")}`, { token: t.admin.token })).json();
    expect(literal.results.map((r: { name: string }) => r.name)).toEqual(["50%_desconto"]);
    const bad = await app.api("GET", "/api/sms/cost-center/?page=0", { token: t.admin.token });
    expect(bad.statusCode).toBe(400);
  });
});
