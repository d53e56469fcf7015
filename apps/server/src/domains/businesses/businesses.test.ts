import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, type TestApp } from "../../../test/helper.js";
import { addBusiness, createOfficialTestApp, FakeGraph, fakePhone, fakeTemplate, syncBusiness } from "../../../test/fake-graph/setup.js";
import { channels } from "../../channels/manager.js";

let app: TestApp;
let fake: FakeGraph;
beforeAll(async () => {
  fake = await FakeGraph.start();
  app = await createOfficialTestApp(fake);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const input = (o: Record<string, unknown> = {}) => ({
  name: "Conta",
  wabaId: "123456789",
  accessToken: "EAAG-secret-token",
  appSecret: "app-secret-value",
  verifyToken: "verify-token-value",
  ...o,
});

describe("businesses: access", () => {
  it("refuses without a session, a plain user reading and a supervisor writing", async () => {
    const t = await buildTenant(app);
    for (const [m, url] of [
      ["GET", "/api/businesses"],
      ["POST", "/api/businesses"],
      ["PUT", "/api/businesses/1"],
      ["POST", "/api/businesses/1/sync"],
    ] as const) {
      const res = await app.api(m, url, { body: m === "GET" ? undefined : input() });
      expect(res.statusCode).toBe(401);
    }
    expect((await app.api("GET", "/api/businesses", { token: t.user.token })).statusCode).toBe(403);
    expect((await app.api("GET", "/api/businesses", { token: t.supervisor.token })).statusCode).toBe(200);
    const post = await app.api("POST", "/api/businesses", { token: t.supervisor.token, body: input() });
    expect(post.statusCode).toBe(403);
    expect(post.json().error).toBe("ERR_NO_PERMISSION");
    const id = (await app.api("POST", "/api/businesses", { token: t.admin.token, body: input({ wabaId: "55501" }) })).json().id;
    expect((await app.api("PUT", `/api/businesses/${id}`, { token: t.supervisor.token, body: { name: "X" } })).statusCode).toBe(403);
    expect((await app.api("POST", `/api/businesses/${id}/sync`, { token: t.supervisor.token })).statusCode).toBe(403);
  });

  it("never shows, changes or syncs another company's business", async () => {
    const a = await buildTenant(app);
    const b = await buildTenant(app);
    const id = (await app.api("POST", "/api/businesses", { token: a.admin.token, body: input({ wabaId: "777" }) })).json().id;
    expect((await app.api("GET", "/api/businesses", { token: b.admin.token })).json()).toEqual([]);
    expect((await app.api("GET", `/api/businesses/${id}`, { token: b.admin.token })).statusCode).toBe(404);
    const put = await app.api("PUT", `/api/businesses/${id}`, { token: b.admin.token, body: { name: "Tomada" } });
    expect(put.statusCode).toBe(404);
    expect((await app.api("POST", `/api/businesses/${id}/sync`, { token: b.admin.token })).statusCode).toBe(404);
    expect((await app.api("GET", `/api/businesses/${id}`, { token: a.admin.token })).json().name).toBe("Conta");
    // the same WABA id may exist in another company
    expect((await app.api("POST", "/api/businesses", { token: b.admin.token, body: input({ wabaId: "777" }) })).statusCode).toBe(200);
  });
});

describe("businesses: create and edit", () => {
  it("stores the secrets without ever returning them", async () => {
    const t = await buildTenant(app);
    const res = await app.api("POST", "/api/businesses", { token: t.admin.token, body: input() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ name: "Conta", wabaId: "123456789", hasAccessToken: true, hasAppSecret: true, hasVerifyToken: true, phoneNumbersCount: 0 });
    expect(body.webhookPath).toBe(`/api/webhooks/whatsapp/${body.id}`);
    const list = await app.api("GET", "/api/businesses", { token: t.supervisor.token });
    for (const text of [res.body, list.body]) {
      expect(text).not.toContain("EAAG-secret-token");
      expect(text).not.toContain("app-secret-value");
      expect(text).not.toContain("verify-token-value");
    }
    const stored = await app.sql.one<{ company_id: number; access_token: string }>("SELECT company_id, access_token FROM businesses WHERE id = $1", [body.id]);
    // sealed at rest for this row (core/secrets), opened only by the server
    expect(stored.access_token).toMatch(/^v2:test:/);
    expect(stored.access_token).not.toContain("EAAG");
    expect(app.ctx.secrets.open({ companyId: stored.company_id, column: "businesses.access_token", row: body.id }, stored.access_token)).toBe("EAAG-secret-token");
  });

  it("validates the fields and refuses a WABA registered twice", async () => {
    const t = await buildTenant(app);
    const bad = await app.api("POST", "/api/businesses", { token: t.admin.token, body: input({ name: "A", wabaId: "12ab", accessToken: "", verifyToken: "short" }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ name: "Too Short!", wabaId: "Somente dígitos", accessToken: "Required", verifyToken: "Too Short!" });
    expect((await app.api("POST", "/api/businesses", { token: t.admin.token, body: input() })).statusCode).toBe(200);
    const dup = await app.api("POST", "/api/businesses", { token: t.admin.token, body: input({ name: "Outra" }) });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().fields.wabaId).toBeDefined();
  });

  it("keeps a secret left empty on edit and replaces one that is given", async () => {
    const t = await buildTenant(app);
    const id = (await app.api("POST", "/api/businesses", { token: t.admin.token, body: input() })).json().id;
    const res = await app.api("PUT", `/api/businesses/${id}`, { token: t.admin.token, body: { name: "Renomeada", accessToken: "", appSecret: "new-app-secret" } });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe("Renomeada");
    const s = await app.sql.one<{ access_token: string; app_secret: string; verify_token: string }>(
      "SELECT access_token, app_secret, verify_token FROM businesses WHERE id = $1",
      [id],
    );
    const open = (column: keyof typeof s) => app.ctx.secrets.open({ companyId: t.companyId, column: `businesses.${column}`, row: id }, s[column]);
    expect({ access_token: open("access_token"), app_secret: open("app_secret"), verify_token: open("verify_token") }).toEqual({
      access_token: "EAAG-secret-token",
      app_secret: "new-app-secret",
      verify_token: "verify-token-value",
    });
    expect(res.body).not.toContain("new-app-secret");
  });
});

describe("businesses: sync with the Graph API", () => {
  it("pulls every phone number (all pages) and template, one official connection per number", async () => {
    const t = await buildTenant(app);
    fake.phones = [
      fakePhone({ digits: "5511900000001", verified_name: "Loja Centro", quality_rating: "GREEN", messaging_limit_tier: "TIER_1K" }),
      fakePhone({ digits: "5511900000002", verified_name: "Loja Norte", quality_rating: "YELLOW", messaging_limit_tier: "TIER_10K" }),
      fakePhone({
        digits: "5511900000003",
        verified_name: "Loja Sul",
        quality_rating: "RED",
        status: "BANNED",
        health_status: {
          can_send_message: "BLOCKED",
          entities: [{ entity_type: "PHONE_NUMBER", id: "1", can_send_message: "BLOCKED", errors: [{ error_code: 141006, error_description: "Número banido" }] }],
        },
      }),
    ];
    fake.templates = [
      fakeTemplate("pedido_enviado"),
      fakeTemplate("promo_imagem", {
        category: "MARKETING",
        components: [
          { type: "HEADER", format: "IMAGE" },
          { type: "BODY", text: "Oi {{1}}! Confira {{2}} e {{1}}." },
          { type: "BUTTONS", buttons: [{ type: "URL", text: "Ver", url: "https://loja.test/{{3}}" }] },
        ],
      }),
      fakeTemplate("codigo", { category: "AUTHENTICATION", status: "REJECTED", rejected_reason: "INVALID_FORMAT", components: [{ type: "BODY", text: "Código" }] }),
    ];
    const businessId = await addBusiness(app, t.admin.token, fake);
    const result = await syncBusiness(app, t.admin.token, businessId);
    expect(result.phoneNumbers).toEqual({ total: 3, created: 3, updated: 0, skipped: 0, removed: 0 });
    expect(result.templates).toEqual({ total: 3, created: 3, updated: 0, removed: 0 });
    expect(result.business).toMatchObject({ phoneNumbersCount: 3, templatesCount: 3, accountStatus: "APPROVED" });
    // paging followed (page size 2): two requests per edge
    expect(fake.requests.filter((r) => r.endsWith(`/${fake.wabaId}/phone_numbers`)).length).toBeGreaterThanOrEqual(2);
    // the app is subscribed to the account's webhooks (Meta sends none otherwise)
    expect(fake.requests.filter((r) => r.endsWith(`/${fake.wabaId}/subscribed_apps`))).toEqual([`POST /v23.0/${fake.wabaId}/subscribed_apps`]);
    expect([...fake.subscribedWabas]).toEqual([fake.wabaId]);

    const conns = await app.sql.many<{ id: number; name: string; provider: string; is_official: boolean; status: string; number: string }>(
      "SELECT id, name, provider, is_official, status, number FROM whatsapps WHERE company_id = $1 ORDER BY number",
      [t.companyId],
    );
    expect(conns.map((c) => [c.name, c.provider, c.is_official, c.status, c.number])).toEqual([
      ["Loja Centro", "official", true, "CONNECTED", "5511900000001"],
      ["Loja Norte", "official", true, "CONNECTED", "5511900000002"],
      ["Loja Sul", "official", true, "CONNECTED", "5511900000003"],
    ]);
    // the drivers run, so the connections can send at once
    for (const c of conns) expect(channels(app.ctx).get(c.id)).toBeDefined();

    const numbers = await app.sql.many<Record<string, unknown>>(
      `SELECT phone_number, messaging_limit, quality_score, operating_status, phone_status, phone_status_reason, can_send_message
         FROM official_numbers WHERE company_id = $1 ORDER BY phone_number`,
      [t.companyId],
    );
    expect(numbers[1]).toMatchObject({ messaging_limit: "TIER_10K", quality_score: "YELLOW", operating_status: "CONNECTED", phone_status: "ACTIVE" });
    expect(numbers[2]).toMatchObject({ quality_score: "RED", operating_status: "BANNED", phone_status: "DISABLED", phone_status_reason: "Número banido", can_send_message: "BLOCKED" });

    const templates = await app.sql.many<{ name: string; variable_count: number; header_format: string; status: string; rejected_reason: string }>(
      "SELECT name, variable_count, header_format, status, rejected_reason FROM whatsapp_templates WHERE company_id = $1 ORDER BY name",
      [t.companyId],
    );
    expect(templates).toEqual([
      { name: "codigo", variable_count: 0, header_format: "", status: "REJECTED", rejected_reason: "INVALID_FORMAT" },
      { name: "pedido_enviado", variable_count: 2, header_format: "", status: "APPROVED", rejected_reason: "" },
      { name: "promo_imagem", variable_count: 3, header_format: "IMAGE", status: "APPROVED", rejected_reason: "" },
    ]);

    // A second sync updates instead of duplicating; a number gone from the account is marked DELETED.
    fake.phones = fake.phones.slice(0, 2);
    fake.phones[0]!.quality_rating = "YELLOW";
    fake.templates = fake.templates.slice(0, 2);
    const again = await syncBusiness(app, t.admin.token, businessId);
    expect(again.phoneNumbers).toEqual({ total: 2, created: 0, updated: 2, skipped: 0, removed: 1 });
    expect(again.templates).toEqual({ total: 2, created: 0, updated: 2, removed: 1 });
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM whatsapps WHERE company_id = $1", [t.companyId])).n).toBe(3);
    const centro = await app.sql.one<{ quality_score: string }>("SELECT quality_score FROM official_numbers WHERE company_id = $1 AND phone_number = '5511900000001'", [t.companyId]);
    expect(centro.quality_score).toBe("YELLOW");
    const gone = await app.sql.one<{ operating_status: string; phone_status: string }>(
      "SELECT operating_status, phone_status FROM official_numbers WHERE company_id = $1 AND phone_number = '5511900000003'",
      [t.companyId],
    );
    expect(gone).toEqual({ operating_status: "DELETED", phone_status: "DISABLED" });
  });

  it("skips new numbers beyond the plan's connection limit", async () => {
    const t = await buildTenant(app, { plan: { connections: 1 } });
    fake.phones = [fakePhone({ digits: "5521900000001" }), fakePhone({ digits: "5521900000002" })];
    fake.templates = [];
    const businessId = await addBusiness(app, t.admin.token, fake);
    const result = await syncBusiness(app, t.admin.token, businessId);
    expect(result.phoneNumbers).toMatchObject({ total: 2, created: 1, skipped: 1 });
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM whatsapps WHERE company_id = $1", [t.companyId])).n).toBe(1);
  });

  it("answers 502 with Meta's message when the Graph API refuses the token", async () => {
    const t = await buildTenant(app);
    const id = (await app.api("POST", "/api/businesses", { token: t.admin.token, body: input({ wabaId: fake.wabaId, accessToken: "wrong-token" }) })).json().id;
    const res = await app.api("POST", `/api/businesses/${id}/sync`, { token: t.admin.token });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe("ERR_WAPP_NOT_INITIALIZED");
    expect(res.json().message).toContain("Invalid OAuth access token");
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM whatsapps WHERE company_id = $1", [t.companyId])).n).toBe(0);
  });
});
