import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { visibleText } from "./visible-text.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const html = '<html><body><h1 style="color:red">Olá {{nome}}</h1><p>Sua fatura chegou.</p><script>alert(1)</script></body></html>';
const body = (o: Record<string, unknown> = {}) => ({ title: "Fatura", subject: "Sua fatura de março", content: html, ...o });

describe("e-mail templates: access", () => {
  it("needs supervisor or above, useCampaigns and campaignsEnabled; another company's id is not found", async () => {
    const a = await buildTenant(app);
    const b = await buildTenant(app);
    expect((await app.api("GET", "/api/email/templates/")).statusCode).toBe(401);
    expect((await app.api("GET", "/api/email/templates/", { token: a.user.token })).json().error).toBe("ERR_NO_PERMISSION");
    expect((await app.api("POST", "/api/email/templates/", { token: a.user.token, body: body() })).statusCode).toBe(403);
    const noPlan = await buildTenant(app, { plan: { flags: { useCampaigns: false } } });
    expect((await app.api("GET", "/api/email/templates/", { token: noPlan.admin.token })).json().error).toBe("ERR_PLAN_FEATURE_DISABLED");

    const created = await app.api("POST", "/api/email/templates/", { token: a.supervisor.token, body: body() });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as number;
    expect((await app.api("GET", "/api/email/templates/", { token: b.admin.token })).json()).toEqual({ results: [], count: 0, next: null });
    const get = await app.api("GET", `/api/email/templates/${id}/`, { token: b.admin.token });
    expect(get.statusCode).toBe(404);
    expect(get.json().error).toBe("ERR_EMAIL_TEMPLATE_NOT_FOUND");
    expect((await app.api("PUT", `/api/email/templates/${id}/`, { token: b.admin.token, body: body({ title: "Tomado" }) })).statusCode).toBe(404);

    await app.api("PUT", "/api/settings/campaignsEnabled", { token: a.admin.token, body: { value: "false" } });
    for (const [m, url] of [
      ["GET", "/api/email/templates/"],
      ["POST", "/api/email/templates/"],
      ["GET", `/api/email/templates/${id}/`],
      ["PUT", `/api/email/templates/${id}/`],
    ] as const) {
      const res = await app.api(m, url, { token: a.admin.token, body: m === "GET" ? undefined : body() });
      expect(res.json().error, `${m} ${url}`).toBe("ERR_FEATURE_DISABLED");
    }
  });
});

describe("e-mail templates: create, update, list", () => {
  it("creates (answer has the id), updates the same id, and stores the HTML exactly as sent", async () => {
    const t = await buildTenant(app);
    const res = await app.api("POST", "/api/email/templates", { token: t.admin.token, body: body() });
    expect(res.statusCode).toBe(200);
    const id = res.json().id as number;
    expect(res.json()).toEqual({ id, title: "Fatura", subject: "Sua fatura de março", content: html, updated_at: expect.any(String), type: "email" });
    const changed = "  <p>Nova versão &amp; <b>mais</b> texto</p>\n";
    const put = await app.api("PUT", `/api/email/templates/${id}`, { token: t.admin.token, body: body({ title: "Fatura v2", content: changed }) });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ id, title: "Fatura v2", content: changed });
    const get = (await app.api("GET", `/api/email/templates/${id}/`, { token: t.admin.token })).json();
    expect(get).toMatchObject({ id, title: "Fatura v2", subject: "Sua fatura de março", content: changed });
    expect(await app.sql.one("SELECT count(*)::int AS n FROM email_templates WHERE company_id = $1", [t.companyId])).toEqual({ n: 1 });
  });

  it("validates title and subject 2-128 and refuses empty content, saving nothing", async () => {
    const t = await buildTenant(app);
    for (const [b, field, message] of [
      [body({ title: "F" }), "title", "Too Short!"],
      [body({ title: "f".repeat(129) }), "title", "Too Long!"],
      [body({ subject: "" }), "subject", "Required"],
      [body({ subject: "s".repeat(129) }), "subject", "Too Long!"],
      [body({ content: "" }), "content", "Required"],
      [body({ content: "  \n\t " }), "content", "Required"],
      [{ title: "Fatura", subject: "Assunto" }, "content", "Required"],
    ] as const) {
      const res = await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: b });
      expect(res.statusCode, JSON.stringify(b).slice(0, 80)).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
    expect(await app.sql.one("SELECT count(*)::int AS n FROM email_templates WHERE company_id = $1", [t.companyId])).toEqual({ n: 0 });
  });

  it("refuses HTML over 512 KB with its own code", async () => {
    const t = await buildTenant(app);
    const big = `<p>${"a".repeat(512 * 1024)}</p>`;
    const res = await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ content: big }) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe("ERR_EMAIL_TEMPLATE_TOO_LARGE");
    // just under the limit (multi-byte characters count as their UTF-8 bytes)
    const fits = await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ content: "é".repeat(256 * 1024 - 1) }) });
    expect(fits.statusCode).toBe(200);
    const over = await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ content: "é".repeat(256 * 1024 + 1) }) });
    expect(over.json().error).toBe("ERR_EMAIL_TEMPLATE_TOO_LARGE");
  });

  it("searches by title and pages 20 at a time with next", async () => {
    const t = await buildTenant(app);
    for (let i = 1; i <= 21; i++) await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ title: `News ${i}` }) });
    await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ title: "Boas-vindas" }) });
    const first = (await app.api("GET", "/api/email/templates/", { token: t.admin.token })).json();
    expect(first).toMatchObject({ count: 22, next: 2 });
    expect(first.results).toHaveLength(20);
    expect(first.results[0]).toEqual({ id: expect.any(Number), title: "Boas-vindas", subject: "Sua fatura de março", updated_at: expect.any(String), type: "email" });
    const second = (await app.api("GET", "/api/email/templates/?page=2", { token: t.admin.token })).json();
    expect(second).toMatchObject({ count: 22, next: null });
    expect(second.results.map((r: { title: string }) => r.title)).toEqual(["News 2", "News 1"]);
    const search = (await app.api("GET", "/api/email/templates/?title=boas", { token: t.admin.token })).json();
    expect(search.results.map((r: { title: string }) => r.title)).toEqual(["Boas-vindas"]);
  });

  it("refuses a blocked word in the subject or in the text the reader sees, not in the markup", async () => {
    const t = await buildTenant(app);
    await app.api("POST", "/api/keyword", { token: t.admin.token, body: { word: "sorteio\npromoção" } });
    await app.api("PUT", "/api/settings/enableBlockList", { token: t.admin.token, body: { value: "enabled" } });
    const inSubject = await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ subject: "Grande SORTEIO" }) });
    expect(inSubject.statusCode).toBe(400);
    expect(inSubject.json()).toMatchObject({ error: "ERR_BLOCKED_WORDS", words: ["sorteio"] });
    const split = await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ content: "<p>Nossa <b>promo</b>&ccedil;&atilde;o</p>" }) });
    expect(split.statusCode).toBe(400);
    expect(split.json()).toMatchObject({ error: "ERR_BLOCKED_WORDS", words: ["promoção"] });
    const markup = await app.api("POST", "/api/email/templates/", { token: t.admin.token, body: body({ content: '<p class="sorteio">Bom dia</p><!-- sorteio -->' }) });
    expect(markup.statusCode, markup.body).toBe(200);
    const edit = await app.api("PUT", `/api/email/templates/${markup.json().id}/`, { token: t.admin.token, body: body({ content: "<div>sorteio</div>" }) });
    expect(edit.json()).toMatchObject({ error: "ERR_BLOCKED_WORDS", words: ["sorteio"] });
  });
});

describe("visibleText", () => {
  it("reads an e-mail's HTML as its reader sees it", () => {
    expect(visibleText("<style>p{color:red}</style><p>Olá&nbsp;<b>Ma</b>ria</p><div>Até</div><!-- x --><script>var a='oi'</script>&#8364;&#x41;")).toBe("Olá Maria Até €A");
    expect(visibleText("a&bogus;b &#0; <br>c &Ccedil;&atilde;o")).toBe("a&bogus;b &#0; c Ção");
  });
});
