import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";
import { checkTemplateSend } from "../../../test/fake-graph/template-send.js";
import type { TestApp } from "../../../test/helper.js";

let app: TestApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;
const ids: Record<string, number> = {};

const named = fakeTemplate("boas_vindas", {
  parameter_format: "NAMED",
  components: [
    { type: "HEADER", format: "TEXT", text: "Olá {{first_name}}" },
    { type: "BODY", text: "{{first_name}}, seu pedido {{order_id}} chega {{day}}." },
    { type: "FOOTER", text: "Loja Teste" },
  ],
});
const tracking = fakeTemplate("rastreio", {
  components: [
    { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
    { type: "BODY", text: "Olá {{1}}, total {{2}}." },
    {
      type: "BUTTONS",
      buttons: [
        { type: "URL", text: "Rastrear", url: "https://loja.test/r/{{1}}" },
        { type: "COPY_CODE", example: "CUPOM10" },
        { type: "QUICK_REPLY", text: "Falar com atendente" },
      ],
    },
  ],
});
const video = fakeTemplate("novidades", { components: [{ type: "HEADER", format: "VIDEO" }, { type: "BODY", text: "Veja as novidades da semana." }] });
const invoice = fakeTemplate("boleto", { components: [{ type: "HEADER", format: "DOCUMENT" }, { type: "BODY", text: "Segue seu boleto, {{1}}." }] });

beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.templates = [named, tracking, video, invoice];
  app = await createOfficialTestApp(fake);
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511922220001"]);
  for (const t of await app.sql.many<{ id: number; name: string }>("SELECT id, name FROM whatsapp_templates WHERE business_id = $1", [a.businessId])) ids[t.name] = t.id;
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

/** An open ticket of a customer who wrote through the signed webhook. */
async function openTicket(from: string): Promise<number> {
  const phone = { id: a.numbers[0]!.phoneNumberId, display_phone_number: a.numbers[0]!.displayPhoneNumber };
  const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone, { contacts: [{ wa_id: from, name: "Cliente" }], messages: [P.text(from, "Oi")] })]]);
  expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${a.businessId}`, payload)).status).toBe(200);
  await webhooksSettled(app, a.businessId);
  const ticket = await app.sql.one<{ id: number; status: string }>(
    `SELECT t.id, t.status FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
      WHERE t.company_id = $1 AND c.number = $2 AND t.status <> 'closed'`,
    [a.companyId, from],
  );
  if (ticket.status !== "open") {
    expect((await app.api("PUT", `/api/tickets/${ticket.id}`, { token: a.admin.token, body: { status: "open", userId: a.admin.id } })).statusCode).toBe(200);
  }
  return ticket.id;
}

const send = (ticketId: number, body: Record<string, unknown>) => app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: a.admin.token, body });
const lastTemplate = (to: string) => fake.messagesTo(to).at(-1)!.body.template;
const storedBody = async (id: number) => (await app.sql.one<{ body: string }>("SELECT body FROM messages WHERE id = $1", [id])).body;

describe("template parameters as Meta receives them", () => {
  it("sends a NAMED template with parameter_name in header and body, and stores the text read", async () => {
    const c = "5511933330001";
    const ticketId = await openTicket(c);
    const res = await send(ticketId, { templateId: ids.boas_vindas, namedVariables: { first_name: "Ana", order_id: "4512", day: "amanhã" } });
    expect(res.statusCode, res.body).toBe(200);
    expect(lastTemplate(c)).toEqual({
      name: "boas_vindas",
      language: { code: "pt_BR" },
      components: [
        { type: "header", parameters: [{ type: "text", parameter_name: "first_name", text: "Ana" }] },
        {
          type: "body",
          parameters: [
            { type: "text", parameter_name: "first_name", text: "Ana" },
            { type: "text", parameter_name: "order_id", text: "4512" },
            { type: "text", parameter_name: "day", text: "amanhã" },
          ],
        },
      ],
    });
    expect(await storedBody(res.json().id)).toBe("Olá Ana\n\nAna, seu pedido 4512 chega amanhã.\n\nLoja Teste");
  });

  it("sends a positional header, body, URL suffix, coupon code and quick-reply payload", async () => {
    const c = "5511933330002";
    const ticketId = await openTicket(c);
    const res = await send(ticketId, {
      templateId: ids.rastreio,
      headerText: "4512",
      variables: ["Ana", "R$ 10,00"],
      buttons: [
        { index: 0, value: "ABC123" },
        { index: 1, value: "CUPOM10" },
        { index: 2, value: "ATENDENTE" },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(lastTemplate(c)).toEqual({
      name: "rastreio",
      language: { code: "pt_BR" },
      components: [
        { type: "header", parameters: [{ type: "text", text: "4512" }] },
        { type: "body", parameters: [{ type: "text", text: "Ana" }, { type: "text", text: "R$ 10,00" }] },
        { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "ABC123" }] },
        { type: "button", sub_type: "copy_code", index: "1", parameters: [{ type: "coupon_code", coupon_code: "CUPOM10" }] },
        { type: "button", sub_type: "quick_reply", index: "2", parameters: [{ type: "payload", payload: "ATENDENTE" }] },
      ],
    });
    expect(await storedBody(res.json().id)).toBe(
      "Pedido 4512\n\nOlá Ana, total R$ 10,00.\n\n[Rastrear] https://loja.test/r/ABC123\n[Copiar código] CUPOM10\n[Falar com atendente]",
    );
  });

  it("sends video and document headers (with the document's file name)", async () => {
    const c = "5511933330003";
    const ticketId = await openTicket(c);
    expect((await send(ticketId, { templateId: ids.novidades, headerMediaUrl: "https://cdn.loja.test/semana.mp4" })).statusCode).toBe(200);
    expect(lastTemplate(c)).toEqual({
      name: "novidades",
      language: { code: "pt_BR" },
      components: [{ type: "header", parameters: [{ type: "video", video: { link: "https://cdn.loja.test/semana.mp4" } }] }],
    });
    const doc = await send(ticketId, { templateId: ids.boleto, headerMediaUrl: "https://cdn.loja.test/b.pdf", headerFilename: "boleto.pdf", variables: ["Ana"] });
    expect(doc.statusCode, doc.body).toBe(200);
    expect(lastTemplate(c)).toEqual({
      name: "boleto",
      language: { code: "pt_BR" },
      components: [
        { type: "header", parameters: [{ type: "document", document: { link: "https://cdn.loja.test/b.pdf", filename: "boleto.pdf" } }] },
        { type: "body", parameters: [{ type: "text", text: "Ana" }] },
      ],
    });
    expect(await storedBody(doc.json().id)).toBe("Segue seu boleto, Ana.");
  });

  it("refuses before calling Meta when a header, body or button variable is left unfilled", async () => {
    const c = "5511933330004";
    const ticketId = await openTicket(c);
    const before = fake.sent.length;
    const noCode = await send(ticketId, { templateId: ids.rastreio, headerText: "4512", variables: ["Ana", "R$ 1"], buttons: [{ index: 0, value: "ABC" }] });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({ error: "ERR_TEMPLATE_VARIABLES_MISSING", fields: { "button.1": "Required" } });
    const blank = await send(ticketId, { templateId: ids.rastreio, variables: ["Ana", " "], buttons: [{ index: 0, value: "A" }, { index: 1, value: "B" }] });
    expect(blank.json()).toMatchObject({ error: "ERR_TEMPLATE_VARIABLES_MISSING", fields: { header: "Required", "body.2": "Required" } });
    const namedMissing = await send(ticketId, { templateId: ids.boas_vindas, namedVariables: { first_name: "Ana", order_id: "1" } });
    expect(namedMissing.json()).toMatchObject({ error: "ERR_TEMPLATE_VARIABLES_MISSING", fields: { "body.day": "Required" } });
    const noVideo = await send(ticketId, { templateId: ids.novidades });
    expect(noVideo.json()).toMatchObject({ error: "ERR_TEMPLATE_VARIABLES_MISSING", fields: { header: "Required" } });
    // values Meta would refuse: a coupon code over 15 characters, a parameter for a button that takes none
    const longCode = await send(ticketId, { templateId: ids.rastreio, headerText: "1", variables: ["a", "b"], buttons: [{ index: 0, value: "A" }, { index: 1, value: "CUPOM_LONGO_DEMAIS" }] });
    expect(longCode.statusCode).toBe(400);
    expect(longCode.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { "button.1": "Invalid" } });
    const stray = await send(ticketId, { templateId: ids.novidades, headerMediaUrl: "https://cdn.loja.test/v.mp4", buttons: [{ index: 0, value: "X" }] });
    expect(stray.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { "button.0": "Invalid" } });
    expect(fake.sent.length).toBe(before);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me", [ticketId])).n).toBe(0);
  });

  it("stores each template's parameter format from the sync and exposes its components", async () => {
    const res = await app.api("GET", `/api/officialWhatsapp/templates?businessId=${a.businessId}`, { token: a.admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as { name: string; parameterFormat: string; components: unknown[] }[];
    expect(list.map((t) => [t.name, t.parameterFormat])).toEqual([
      ["boas_vindas", "NAMED"],
      ["boleto", "POSITIONAL"],
      ["novidades", "POSITIONAL"],
      ["rastreio", "POSITIONAL"],
    ]);
    expect(list.find((t) => t.name === "novidades")!.components).toEqual([{ type: "HEADER", format: "VIDEO" }, { type: "BODY", text: "Veja as novidades da semana." }]);
  });
});

describe("the ticket's templates", () => {
  it("lists the approved templates of the ticket connection's business to whoever may write on it", async () => {
    const ticketId = await openTicket("5511933330005");
    const res = await app.api("GET", `/api/officialWhatsapp/ticket/${ticketId}/templates`, { token: a.admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { name: string }[]).map((t) => t.name)).toEqual(["boas_vindas", "boleto", "novidades", "rastreio"]);
    expect((await app.api("GET", `/api/officialWhatsapp/ticket/${ticketId}/templates`)).statusCode).toBe(401);
  });
});

describe("the fake Graph checks template sends as Meta documents them", () => {
  const template = (components: unknown[]) => ({ name: "boas_vindas", language: { code: "pt_BR" }, components });
  const namedBody = [
    { type: "text", parameter_name: "first_name", text: "Ana" },
    { type: "text", parameter_name: "order_id", text: "1" },
    { type: "text", parameter_name: "day", text: "hoje" },
  ];
  const header = { type: "header", parameters: [{ type: "text", parameter_name: "first_name", text: "Ana" }] };

  it("accepts Meta's documented shape and refuses counts, formats and names that do not match the template", () => {
    expect(checkTemplateSend([named], template([header, { type: "body", parameters: namedBody }]))).toBeNull();
    expect(checkTemplateSend([named], template([header, { type: "body", parameters: namedBody.slice(0, 2) }]))?.code).toBe(132000);
    expect(checkTemplateSend([named], template([header, { type: "body", parameters: namedBody.map(({ type, text }) => ({ type, text })) }]))?.code).toBe(100);
    expect(checkTemplateSend([named], { ...template([]), name: "nao_existe" })?.code).toBe(132001);
    const url = { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "X" }] };
    const code = (coupon: string) => ({ type: "button", sub_type: "copy_code", index: "1", parameters: [{ type: "coupon_code", coupon_code: coupon }] });
    const base = [
      { type: "header", parameters: [{ type: "text", text: "1" }] },
      { type: "body", parameters: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
    ];
    const tracked = (components: unknown[]) => ({ name: "rastreio", language: { code: "pt_BR" }, components });
    expect(checkTemplateSend([tracking], tracked([...base, url, code("C10")]))).toBeNull();
    expect(checkTemplateSend([tracking], tracked([...base, url]))?.code).toBe(132000);
    expect(checkTemplateSend([tracking], tracked([...base, url, code("MAIS_DE_QUINZE_CHARS")]))?.code).toBe(132012);
    expect(checkTemplateSend([tracking], tracked([...base, { ...url, index: 0 }, code("C10")]))?.code).toBe(100);
    expect(checkTemplateSend([video], { name: "novidades", language: { code: "pt_BR" }, components: [{ type: "header", parameters: [{ type: "image", image: { link: "https://x.test/a.jpg" } }] }] })?.code).toBe(132012);
  });
});
