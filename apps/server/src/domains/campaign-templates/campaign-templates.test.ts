import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, type TestApp } from "../../../test/helper.js";
import { addBusiness, createOfficialTestApp, FakeGraph, fakePhone, fakeTemplate, syncBusiness } from "../../../test/fake-graph/setup.js";

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

/** Templates as Meta's message_templates lists them (components per Meta's documented shapes). */
function metaTemplates() {
  return [
    fakeTemplate("pedido_enviado", { category: "UTILITY" }), // BODY with {{1}} and {{2}}
    fakeTemplate("promo_imagem", {
      category: "MARKETING",
      components: [
        { type: "HEADER", format: "IMAGE" },
        { type: "BODY", text: "Oi {{1}}! Veja a oferta." },
        { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Quero" }] },
      ],
    }),
    fakeTemplate("video_aula", { category: "MARKETING", components: [{ type: "HEADER", format: "VIDEO" }, { type: "BODY", text: "Sua aula chegou." }] }),
    fakeTemplate("boleto", {
      category: "UTILITY",
      components: [
        { type: "HEADER", format: "DOCUMENT" },
        { type: "BODY", text: "Segue o boleto {{1}}." },
      ],
    }),
    fakeTemplate("loja_mapa", { category: "UTILITY", components: [{ type: "HEADER", format: "LOCATION" }, { type: "BODY", text: "Estamos aqui." }] }),
    fakeTemplate("rastreio", {
      category: "UTILITY",
      components: [
        { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
        { type: "BODY", text: "Acompanhe a entrega." },
        { type: "BUTTONS", buttons: [{ type: "URL", text: "Rastrear", url: "https://loja.test/r/{{1}}", example: ["https://loja.test/r/abc"] }] },
      ],
    }),
    fakeTemplate("codigo", { category: "AUTHENTICATION", status: "REJECTED", rejected_reason: "INVALID_FORMAT", components: [{ type: "BODY", text: "Código {{1}}" }] }),
    fakeTemplate("aguardando", { category: "MARKETING", status: "PENDING", components: [{ type: "BODY", text: "Em breve" }] }),
    fakeTemplate("cabecalho_texto", {
      category: "MARKETING",
      components: [
        { type: "HEADER", format: "TEXT", text: "Olá {{1}}" },
        { type: "BODY", text: "Seu cupom {{1}} vale até {{2}}." },
      ],
    }),
  ];
}

interface Tpl {
  id: number;
  name: string;
  status: string;
  type: string;
  category: string;
  body: string;
  variableCount: number;
  csvColumns: number;
  validation: { valid: boolean; message: string };
  PhoneNumbers: { id: number; displayNumber: string }[];
  Business: { id: number; name: string };
  TemplateType: { id: number; name: string };
}

async function syncedTenant(o: { phones?: ReturnType<typeof fakePhone>[]; templates?: ReturnType<typeof fakeTemplate>[] } = {}) {
  const t = await buildTenant(app);
  fake.phones = o.phones ?? [fakePhone({ digits: "5511911110001" }), fakePhone({ digits: "5511911110002" })];
  fake.templates = o.templates ?? metaTemplates();
  const businessId = await addBusiness(app, t.admin.token, fake);
  await syncBusiness(app, t.admin.token, businessId);
  return { ...t, businessId };
}

const names = (list: Tpl[]) => list.map((x) => x.name).sort();
const get = async (token: string, url: string) => {
  const res = await app.api("GET", url, { token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as Tpl[];
};

describe("campaign templates: access", () => {
  it("supervisor and above, plan flag useCampaigns, setting campaignsEnabled; numbers changed by admins", async () => {
    const t = await syncedTenant();
    const routes = ["/api/templates/", "/api/template-types", "/api/phones/"];
    for (const url of routes) {
      expect((await app.api("GET", url)).statusCode).toBe(401);
      expect((await app.api("GET", url, { token: t.user.token })).statusCode).toBe(403);
      expect((await app.api("GET", url, { token: t.supervisor.token })).statusCode).toBe(200);
    }
    const phone = (await app.api("GET", "/api/phones/", { token: t.admin.token })).json()[0];
    const bySupervisor = await app.api("PUT", `/api/phones/${phone.id}`, { token: t.supervisor.token, body: { throughputPerSecond: 10 } });
    expect(bySupervisor.statusCode).toBe(403);
    expect((await app.api("POST", "/api/businesses/sandbox", { token: t.supervisor.token })).statusCode).toBe(403);

    await app.sql.exec("UPDATE plans SET use_campaigns = false WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [t.companyId]);
    for (const url of routes) {
      const res = await app.api("GET", url, { token: t.admin.token });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
    }
    await app.sql.exec("UPDATE plans SET use_campaigns = true WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [t.companyId]);
    await app.api("PUT", "/api/settings/campaignsEnabled", { token: t.admin.token, body: { value: "false" } });
    for (const [m, url] of [...routes.map((u) => ["GET", u] as const), ["PUT", `/api/phones/${phone.id}`] as const, ["POST", "/api/businesses/sandbox"] as const]) {
      const res = await app.api(m, url, { token: t.admin.token, body: m === "PUT" ? { throughputPerSecond: 10 } : undefined });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe("ERR_FEATURE_DISABLED");
    }
  });

  it("never shows another company's template or number", async () => {
    const a = await syncedTenant();
    const b = await buildTenant(app);
    const tpl = (await get(a.admin.token, "/api/templates/"))[0]!;
    const phone = (await app.api("GET", "/api/phones/", { token: a.admin.token })).json()[0];
    expect(await get(b.admin.token, "/api/templates/")).toEqual([]);
    expect(await get(b.admin.token, `/api/templates/?BusinessId=${a.businessId}`)).toEqual([]);
    const byId = await app.api("GET", `/api/templates?id=${tpl.id}`, { token: b.admin.token });
    expect(byId.statusCode).toBe(404);
    expect(byId.json().error).toBe("ERR_NO_TEMPLATE_FOUND");
    expect((await app.api("GET", `/api/phones/?BusinessId=${a.businessId}&output=true`, { token: b.admin.token })).json()).toEqual([]);
    const put = await app.api("PUT", `/api/phones/${phone.id}`, { token: b.admin.token, body: { throughputPerSecond: 5 } });
    expect(put.statusCode).toBe(404);
    const stored = await app.sql.one<{ throughput_per_second: number }>("SELECT throughput_per_second FROM official_numbers WHERE id = $1", [phone.id]);
    expect(stored.throughput_per_second).toBe(80);
  });
});

describe("campaign templates: list, filters and validation", () => {
  it("presents each template with its type, body, variables, numbers, business and validation", async () => {
    const t = await syncedTenant();
    const list = await get(t.supervisor.token, "/api/templates/");
    expect(names(list)).toEqual(["aguardando", "boleto", "cabecalho_texto", "codigo", "loja_mapa", "pedido_enviado", "promo_imagem", "rastreio", "video_aula"]);
    const by = Object.fromEntries(list.map((x) => [x.name, x]));
    const numbers = await app.sql.many<{ id: number }>("SELECT id FROM official_numbers WHERE business_id = $1 ORDER BY display_phone_number", [t.businessId]);
    expect(by.pedido_enviado).toMatchObject({
      category: "UTILITY",
      status: "APPROVED",
      type: "TEXT",
      TemplateType: { id: 1, name: "TEXT" },
      body: "Olá {{1}}, seu pedido {{2}} saiu para entrega.",
      variableCount: 2,
      csvColumns: 2,
      language: "pt_BR",
      Business: { id: t.businessId, name: "Conta Oficial" },
      validation: { valid: true, message: "Template ativo" },
      PhoneNumbers: [
        { id: numbers[0]!.id, displayNumber: "+55 11 91111-0001" },
        { id: numbers[1]!.id, displayNumber: "+55 11 91111-0002" },
      ],
    });
    expect(by.promo_imagem).toMatchObject({
      type: "IMAGE",
      TemplateType: { id: 2, name: "IMAGE" },
      variableCount: 1,
      csvColumns: 2,
      validation: { valid: true, message: "A URL da imagem deve ser a primeira variável após as colunas obrigatórias (telefone;cpf;email)" },
    });
    expect(by.video_aula).toMatchObject({
      type: "VIDEO",
      variableCount: 0,
      csvColumns: 1,
      validation: { valid: true, message: "A URL do vídeo deve ser a primeira variável após as colunas obrigatórias (telefone;cpf;email)" },
    });
    expect(by.boleto).toMatchObject({
      type: "DOCUMENT",
      csvColumns: 2,
      validation: { valid: true, message: "A URL do documento deve ser a primeira variável após as colunas obrigatórias (telefone;cpf;email)" },
    });
    expect(by.loja_mapa).toMatchObject({ type: "LOCATION", validation: { valid: false, message: "Cabeçalho do tipo LOCATION não é suportado em campanhas" } });
    expect(by.rastreio!.validation).toEqual({
      valid: false,
      message: 'O botão "Rastrear" (URL) precisa de um valor por destinatário, o que as campanhas não suportam',
    });
    expect(by.codigo).toMatchObject({ status: "REJECTED", validation: { valid: false, message: "Template não aprovado pela Meta (status REJECTED)" } });
    expect(by.aguardando!.validation).toEqual({ valid: false, message: "Template não aprovado pela Meta (status PENDING)" });
    // a text header's variable and the body's are separate columns
    expect(by.cabecalho_texto).toMatchObject({ variableCount: 3, csvColumns: 3, validation: { valid: true } });
  });

  it("filters by business, active, isValid, name and template type; each omitted when empty", async () => {
    const t = await syncedTenant();
    const other = await addBusiness(app, t.admin.token, { ...fake, wabaId: "99887766" } as FakeGraph, { name: "Outra conta" });
    await app.sql.exec(
      `INSERT INTO whatsapp_templates (company_id, business_id, name, language, category, status, header_format, components)
       VALUES ($1, $2, 'outra_promo', 'pt_BR', 'MARKETING', 'APPROVED', '', '[{"type":"BODY","text":"Oi"}]')`,
      [t.companyId, other],
    );
    const all = names(await get(t.admin.token, "/api/templates/"));
    expect(all).toHaveLength(10);
    expect(names(await get(t.admin.token, "/api/templates/?BusinessId=&active=&isValid=&name=&TemplateTypeId="))).toEqual(all);
    expect(names(await get(t.admin.token, `/api/templates/?BusinessId=${other}`))).toEqual(["outra_promo"]);
    expect(names(await get(t.admin.token, `/api/templates/?BusinessId=${t.businessId}`))).toHaveLength(9);
    expect(names(await get(t.admin.token, `/api/templates/?BusinessId=${t.businessId}&active=true`))).toEqual([
      "boleto",
      "cabecalho_texto",
      "loja_mapa",
      "pedido_enviado",
      "promo_imagem",
      "rastreio",
      "video_aula",
    ]);
    expect(names(await get(t.admin.token, "/api/templates/?active=false"))).toEqual(["aguardando", "codigo"]);
    expect(names(await get(t.admin.token, "/api/templates/?isValid=true"))).toEqual(["boleto", "cabecalho_texto", "outra_promo", "pedido_enviado", "promo_imagem", "video_aula"]);
    expect(names(await get(t.admin.token, "/api/templates/?isValid=false"))).toEqual(["aguardando", "codigo", "loja_mapa", "rastreio"]);
    expect(names(await get(t.admin.token, "/api/templates/?name=PROMO"))).toEqual(["outra_promo", "promo_imagem"]);
    expect(names(await get(t.admin.token, "/api/templates/?name=_"))).toEqual(["cabecalho_texto", "loja_mapa", "outra_promo", "pedido_enviado", "promo_imagem", "video_aula"]);
    expect(names(await get(t.admin.token, "/api/templates/?TemplateTypeId=1"))).toEqual(["aguardando", "cabecalho_texto", "codigo", "outra_promo", "pedido_enviado", "rastreio"]);
    expect(names(await get(t.admin.token, "/api/templates/?TemplateTypeId=2"))).toEqual(["promo_imagem"]);
    expect(names(await get(t.admin.token, "/api/templates/?TemplateTypeId=4"))).toEqual(["boleto"]);
    expect(names(await get(t.admin.token, "/api/templates/?TemplateTypeId=5"))).toEqual(["loja_mapa"]);
    expect(await get(t.admin.token, "/api/templates/?TemplateTypeId=99")).toEqual([]);
    expect(names(await get(t.admin.token, `/api/templates/?BusinessId=${t.businessId}&isValid=true&TemplateTypeId=1&name=pedido`))).toEqual(["pedido_enviado"]);
    // a template deleted at Meta (gone from the next sync) is no longer active
    fake.templates = metaTemplates().filter((x) => x.name !== "pedido_enviado");
    await syncBusiness(app, t.admin.token, t.businessId);
    expect(names(await get(t.admin.token, "/api/templates/?active=true"))).not.toContain("pedido_enviado");
    const deleted = (await get(t.admin.token, "/api/templates/?name=pedido_enviado"))[0]!;
    expect(deleted.validation).toEqual({ valid: false, message: "Template não aprovado pela Meta (status DELETED)" });

    const one = await get(t.admin.token, `/api/templates?id=${deleted.id}`);
    expect(one.map((x) => x.id)).toEqual([deleted.id]);
    for (const q of ["id=abc", "isValid=maybe", "active=1", "BusinessId=-1", "TemplateTypeId=x"]) {
      expect((await app.api("GET", `/api/templates/?${q}`, { token: t.admin.token })).statusCode, q).toBe(400);
    }
  });

  it("lists the template types of the catalogue", async () => {
    const t = await buildTenant(app);
    expect((await app.api("GET", "/api/template-types", { token: t.supervisor.token })).json()).toEqual([
      { id: 1, name: "TEXT" },
      { id: 2, name: "IMAGE" },
      { id: 3, name: "VIDEO" },
      { id: 4, name: "DOCUMENT" },
      { id: 5, name: "LOCATION" },
    ]);
  });
});

describe("campaign numbers", () => {
  it("gives the portfolio's remaining 24-hour output: highest tier minus the distinct phones reached", async () => {
    const t = await syncedTenant({
      phones: [fakePhone({ digits: "5511922220001", messaging_limit_tier: "TIER_1K" }), fakePhone({ digits: "5511922220002", messaging_limit_tier: "TIER_10K" })],
      templates: [],
    });
    const send = (phone: string, hoursAgo: number, businessId = t.businessId) =>
      app.sql.exec(
        "INSERT INTO business_initiated_sends (company_id, business_id, phone, sent_at) VALUES ($1, $2, $3, now() - make_interval(secs => $4))",
        [t.companyId, businessId, phone, hoursAgo * 3600],
      );
    await send("5511900000001", 1);
    await send("5511900000001", 2); // the same user again: counted once
    await send("5511900000002", 23.9);
    await send("5511900000003", 0);
    await send("5511900000004", 24.1); // outside the moving 24 hours
    await send("5511900000005", 30);

    const withOutput = (await app.api("GET", `/api/phones/?BusinessId=${t.businessId}&output=true`, { token: t.supervisor.token })).json();
    expect(withOutput).toHaveLength(2);
    expect(withOutput[0]).toEqual({
      id: expect.any(Number),
      businessId: t.businessId,
      displayNumber: "+55 11 92222-0001",
      verifiedName: "Loja Exemplo",
      messagingLimit: "TIER_1K",
      remainingOutput: 9997,
      throughputPerSecond: 80,
    });
    expect(withOutput[1]).toMatchObject({ displayNumber: "+55 11 92222-0002", messagingLimit: "TIER_10K", remainingOutput: 9997 });
    const plain = (await app.api("GET", `/api/phones/?BusinessId=${t.businessId}`, { token: t.supervisor.token })).json();
    expect(plain[0]).not.toHaveProperty("remainingOutput");

    // another company's sends never count
    const other = await syncedTenant({ phones: [fakePhone({ digits: "5511933330001", messaging_limit_tier: "TIER_250" })], templates: [] });
    await app.sql.exec("INSERT INTO business_initiated_sends (company_id, business_id, phone) VALUES ($1, $2, '5511900000009')", [other.companyId, other.businessId]);
    const otherPhones = (await app.api("GET", `/api/phones/?output=true`, { token: other.admin.token })).json();
    expect(otherPhones.map((p: { remainingOutput: number }) => p.remainingOutput)).toEqual([249]);
    expect((await app.api("GET", `/api/phones/?output=true`, { token: t.admin.token })).json()[0].remainingOutput).toBe(9997);

    // an unlimited portfolio, and one used beyond its limit
    await app.sql.exec("UPDATE official_numbers SET messaging_limit = 'TIER_UNLIMITED' WHERE business_id = $1 AND phone_number = '5511922220001'", [t.businessId]);
    expect((await app.api("GET", `/api/phones/?output=true`, { token: t.admin.token })).json().map((p: { remainingOutput: unknown }) => p.remainingOutput)).toEqual([null, null]);
    for (let i = 0; i < 251; i++) await app.sql.exec("INSERT INTO business_initiated_sends (company_id, business_id, phone) VALUES ($1, $2, $3)", [other.companyId, other.businessId, `55119000${i}`]);
    expect((await app.api("GET", `/api/phones/?output=true`, { token: other.admin.token })).json()[0].remainingOutput).toBe(0);
  });

  it("lists only active numbers and sets a number's throughput (1-1000)", async () => {
    const t = await syncedTenant({ templates: [] });
    const phones = (await app.api("GET", "/api/phones/", { token: t.admin.token })).json();
    expect(phones).toHaveLength(2);
    await app.sql.exec("UPDATE official_numbers SET active = false WHERE id = $1", [phones[1].id]);
    expect((await app.api("GET", "/api/phones/", { token: t.admin.token })).json().map((p: { id: number }) => p.id)).toEqual([phones[0].id]);
    // the templates list shows the business's active numbers too
    expect((await get(t.admin.token, "/api/templates/")).length).toBe(0);

    for (const [value, message] of [
      [0, "Mínimo 1"],
      [1001, "Máximo 1000"],
      [2.5, "Somente números inteiros"],
      ["10", "Required"],
    ] as const) {
      const res = await app.api("PUT", `/api/phones/${phones[0].id}`, { token: t.admin.token, body: { throughputPerSecond: value } });
      expect(res.statusCode, String(value)).toBe(400);
      expect(res.json().fields.throughputPerSecond).toBe(message);
    }
    const ok = await app.api("PUT", `/api/phones/${phones[0].id}`, { token: t.admin.token, body: { throughputPerSecond: 1000 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: phones[0].id, throughputPerSecond: 1000 });
    expect((await app.api("GET", "/api/phones/", { token: t.admin.token })).json()[0].throughputPerSecond).toBe(1000);
    expect((await app.api("PUT", "/api/phones/999999", { token: t.admin.token, body: { throughputPerSecond: 5 } })).statusCode).toBe(404);
  });
});
