import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const create = async (token: string, title: string, content = "Olá {{nome}}, seu boleto vence amanhã.") => {
  const res = await app.api("POST", "/api/sms/templates/", { token, body: { title, content } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; title: string; content: string; modified_at: string; type: string };
};

describe("SMS templates: access", () => {
  it("needs a session, supervisor or above, the plan's useCampaigns and the company's campaignsEnabled", async () => {
    const t = await buildTenant(app);
    expect((await app.api("GET", "/api/sms/templates/")).statusCode).toBe(401);
    const asUser = await app.api("GET", "/api/sms/templates/", { token: t.user.token });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().error).toBe("ERR_NO_PERMISSION");
    expect((await app.api("POST", "/api/sms/templates/", { token: t.user.token, body: { title: "Aviso", content: "Oi" } })).statusCode).toBe(403);
    expect((await app.api("GET", "/api/sms/templates/", { token: t.supervisor.token })).statusCode).toBe(200);

    const noPlan = await buildTenant(app, { plan: { flags: { useCampaigns: false } } });
    const planRes = await app.api("GET", "/api/sms/templates/", { token: noPlan.admin.token });
    expect(planRes.statusCode).toBe(403);
    expect(planRes.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");

    const off = await buildTenant(app);
    await app.api("PUT", "/api/settings/campaignsEnabled", { token: off.admin.token, body: { value: "false" } });
    for (const [m, url] of [
      ["GET", "/api/sms/templates/"],
      ["POST", "/api/sms/templates/"],
      ["GET", "/api/sms/templates/1/"],
      ["PUT", "/api/sms/templates/1/"],
    ] as const) {
      const res = await app.api(m, url, { token: off.admin.token, body: m === "GET" ? undefined : { title: "Aviso", content: "Oi" } });
      expect(res.statusCode, `${m} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_FEATURE_DISABLED");
    }
  });

  it("never shows or changes another company's template (404)", async () => {
    const a = await buildTenant(app);
    const b = await buildTenant(app);
    const tpl = await create(a.admin.token, "Cobrança A");
    expect((await app.api("GET", "/api/sms/templates/", { token: b.admin.token })).json()).toEqual({ results: [], count: 0, next: null });
    const get = await app.api("GET", `/api/sms/templates/${tpl.id}/`, { token: b.admin.token });
    expect(get.statusCode).toBe(404);
    expect(get.json().error).toBe("ERR_SMS_TEMPLATE_NOT_FOUND");
    const put = await app.api("PUT", `/api/sms/templates/${tpl.id}/`, { token: b.admin.token, body: { title: "Tomado", content: "Tomado" } });
    expect(put.statusCode).toBe(404);
    expect((await app.api("GET", `/api/sms/templates/${tpl.id}`, { token: a.admin.token })).json()).toMatchObject({ title: "Cobrança A" });
  });
});

describe("SMS templates: create, edit, search and pages", () => {
  it("validates title 2-256 and content 2-1024", async () => {
    const t = await buildTenant(app);
    for (const [body, field, message] of [
      [{ content: "Oi, tudo bem?" }, "title", "Required"],
      [{ title: "A", content: "Oi, tudo bem?" }, "title", "Too Short!"],
      [{ title: "x".repeat(257), content: "Oi, tudo bem?" }, "title", "Too Long!"],
      [{ title: "Aviso" }, "content", "Required"],
      [{ title: "Aviso", content: " " }, "content", "Required"],
      [{ title: "Aviso", content: "O" }, "content", "Too Short!"],
      [{ title: "Aviso", content: "y".repeat(1025) }, "content", "Too Long!"],
      [{ title: "Aviso", content: 42 }, "content", "Required"],
    ] as const) {
      const res = await app.api("POST", "/api/sms/templates/", { token: t.admin.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_VALIDATION" });
      expect(res.json().fields[field]).toBe(message);
    }
    const longest = await create(t.admin.token, "t".repeat(256), "c".repeat(1024));
    expect(longest.content).toHaveLength(1024);
    const put = await app.api("PUT", `/api/sms/templates/${longest.id}/`, { token: t.admin.token, body: { title: "ok", content: "c".repeat(1025) } });
    expect(put.statusCode).toBe(400);
    expect(await app.sql.one("SELECT count(*)::int AS n FROM sms_templates WHERE company_id = $1", [t.companyId])).toEqual({ n: 1 });
  });

  it("creates and edits with and without the trailing slash; the answer has the spec's fields", async () => {
    const t = await buildTenant(app);
    const res = await app.api("POST", "/api/sms/templates", { token: t.supervisor.token, body: { title: "  Lembrete  ", content: "Oi {{nome}}, até {{data}}" } });
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toEqual({ id: expect.any(Number), title: "Lembrete", content: "Oi {{nome}}, até {{data}}", modified_at: expect.any(String), type: "sms" });
    await new Promise((r) => setTimeout(r, 5));
    const put = await app.api("PUT", `/api/sms/templates/${created.id}`, { token: t.supervisor.token, body: { title: "Lembrete 2", content: "Tchau {{nome}}" } });
    expect(put.json()).toMatchObject({ id: created.id, title: "Lembrete 2", content: "Tchau {{nome}}", type: "sms" });
    expect(Date.parse(put.json().modified_at)).toBeGreaterThan(Date.parse(created.modified_at));
    expect((await app.api("GET", `/api/sms/templates/${created.id}/`, { token: t.supervisor.token })).json()).toEqual(put.json());
    expect((await app.api("PUT", "/api/sms/templates/999999/", { token: t.admin.token, body: { title: "Nada", content: "Nada" } })).statusCode).toBe(404);
  });

  it("searches by part of the title and pages 20 at a time with next until the last page", async () => {
    const t = await buildTenant(app);
    for (let i = 1; i <= 23; i++) await create(t.admin.token, `Aviso ${String(i).padStart(2, "0")}`);
    await create(t.admin.token, "Cobrança");
    await create(t.admin.token, "100%_off");

    const first = (await app.api("GET", "/api/sms/templates/", { token: t.admin.token })).json();
    expect(first).toMatchObject({ count: 25, next: 2 });
    expect(first.results).toHaveLength(20);
    expect(first.results[0].title).toBe("100%_off"); // the most recently changed first
    const second = (await app.api("GET", "/api/sms/templates/?page=2", { token: t.admin.token })).json();
    expect(second).toMatchObject({ count: 25, next: null });
    expect(second.results).toHaveLength(5);
    expect(new Set([...first.results, ...second.results].map((r: { id: number }) => r.id)).size).toBe(25);

    const search = (await app.api("GET", "/api/sms/templates/?title=COBRAN", { token: t.admin.token })).json();
    expect(search).toMatchObject({ count: 1, next: null });
    expect(search.results[0].title).toBe("Cobrança");
    const literal = (await app.api("GET", `/api/sms/templates/?title=${encodeURIComponent("%_")}`, { token: t.admin.token })).json();
    expect(literal.results.map((r: { title: string }) => r.title)).toEqual(["100%_off"]);
    expect((await app.api("GET", "/api/sms/templates/?page=9", { token: t.admin.token })).json()).toEqual({ results: [], count: 25, next: null });
  });

  it("refuses content with a blocked word while the block list is on, naming the words", async () => {
    const t = await buildTenant(app);
    await app.api("POST", "/api/keyword", { token: t.admin.token, body: { word: "sorteio\npix grátis" } });
    const body = { title: "Promo", content: "Participe do SORTEIO e ganhe pix gratis" };
    const off = await app.api("POST", "/api/sms/templates/", { token: t.admin.token, body });
    expect(off.statusCode).toBe(200);

    await app.api("PUT", "/api/settings/enableBlockList", { token: t.admin.token, body: { value: "enabled" } });
    const refused = await app.api("POST", "/api/sms/templates/", { token: t.admin.token, body });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: "ERR_BLOCKED_WORDS", words: ["pix grátis", "sorteio"] });
    const edit = await app.api("PUT", `/api/sms/templates/${off.json().id}/`, { token: t.admin.token, body: { title: "Promo", content: "Sorteio hoje" } });
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toMatchObject({ error: "ERR_BLOCKED_WORDS", words: ["sorteio"] });
    // the title is not sent to anyone: a listed word there is fine
    expect((await app.api("POST", "/api/sms/templates/", { token: t.admin.token, body: { title: "Sorteio", content: "Bom dia!" } })).statusCode).toBe(200);
    expect(await app.sql.one("SELECT content FROM sms_templates WHERE id = $1", [off.json().id])).toEqual({ content: body.content });
  });
});
