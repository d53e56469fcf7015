import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/helper.js";
import { sealStored } from "../../../test/factories.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, syncBusiness, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";

let app: TestApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;
let tplId: number;
let imageTplId: number;
beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.templates = [
    fakeTemplate("pedido_enviado"),
    fakeTemplate("promo", { components: [{ type: "HEADER", format: "IMAGE" }, { type: "BODY", text: "Promoção para {{1}}" }] }),
    fakeTemplate("pendente", { status: "PENDING" }),
  ];
  app = await createOfficialTestApp(fake);
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511922220001"]);
  const tpls = await app.sql.many<{ id: number; name: string }>("SELECT id, name FROM whatsapp_templates WHERE business_id = $1", [a.businessId]);
  tplId = tpls.find((t) => t.name === "pedido_enviado")!.id;
  imageTplId = tpls.find((t) => t.name === "promo")!.id;
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const phone = (t: OfficialTenant) => ({ id: t.numbers[0]!.phoneNumberId, display_phone_number: t.numbers[0]!.displayPhoneNumber });

/** A customer's message through the signed webhook; returns the (accepted) ticket id. */
async function customerWrites(t: OfficialTenant, from: string, body: string, o: { ageSeconds?: number; id?: string } = {}): Promise<number> {
  const payload = P.webhook(fake.wabaId, [
    [P.messagesChange(phone(t), { contacts: [{ wa_id: from, name: "Cliente" }], messages: [P.text(from, body, { timestamp: P.nowTs(-(o.ageSeconds ?? 0)), id: o.id })] })],
  ]);
  expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${t.businessId}`, payload)).status).toBe(200);
  await webhooksSettled(app, t.businessId);
  const ticket = await app.sql.one<{ id: number; status: string }>(
    `SELECT t.id, t.status FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
      WHERE t.company_id = $1 AND c.number = $2 AND t.status <> 'closed'`,
    [t.companyId, from],
  );
  if (ticket.status !== "open") {
    const res = await app.api("PUT", `/api/tickets/${ticket.id}`, { token: t.admin.token, body: { status: "open", userId: t.admin.id } });
    expect(res.statusCode).toBe(200);
  }
  return ticket.id;
}

function multipart(fields: Record<string, string>, file: { field: string; name: string; type: string; data: Buffer }) {
  const boundary = "----atendeBoundary7MA4YWxkTrZu0gW";
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describe("Cloud API driver: sending", () => {
  it("sends an agent's text (and a reply) to the Graph API with Meta's JSON and stores the returned wamid", async () => {
    const c = "5511933330001";
    const inboundId = "wamid.CUSTOMER-QUESTION-1";
    const ticketId = await customerWrites(a, c, "Qual o prazo?", { id: inboundId });
    const res = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Chega amanhã!", sign: false } });
    expect(res.statusCode, res.body).toBe(200);
    const sent = fake.messagesTo(c);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.phoneNumberId).toBe(a.numbers[0]!.phoneNumberId);
    expect(sent[0]!.body).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: c, type: "text", text: { body: "Chega amanhã!", preview_url: false } });
    const row = await app.sql.one<{ provider_id: string; ack: number; from_me: boolean }>("SELECT provider_id, ack, from_me FROM messages WHERE id = $1", [res.json().messages[0].id]);
    expect(row).toEqual({ provider_id: sent[0]!.messageId, ack: 1, from_me: true });

    const quoted = await app.sql.one<{ id: number }>("SELECT id FROM messages WHERE provider_id = $1", [inboundId]);
    const reply = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Veja em https://loja.test", sign: false, quotedMsg: { id: quoted.id } } });
    expect(reply.statusCode).toBe(200);
    expect(fake.messagesTo(c)[1]!.body).toMatchObject({ type: "text", text: { body: "Veja em https://loja.test", preview_url: true }, context: { message_id: inboundId } });
  });

  it("uploads an attachment with multipart, then sends it by media id", async () => {
    const c = "5511933330002";
    const ticketId = await customerWrites(a, c, "Manda o boleto");
    const pdf = Buffer.from("%PDF-1.7 boleto");
    const form = multipart({ body: "Segue o boleto", sign: "false" }, { field: "medias", name: "boleto.pdf", type: "application/pdf", data: pdf });
    const res = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: form.body, headers: form.headers });
    expect(res.statusCode, res.body).toBe(200);
    const upload = fake.uploads.at(-1)!;
    expect(upload).toMatchObject({ phoneNumberId: a.numbers[0]!.phoneNumberId, fileName: "boleto.pdf", type: "application/pdf", messagingProduct: "whatsapp" });
    expect(upload.data.equals(pdf)).toBe(true);
    expect(fake.messagesTo(c)[0]!.body).toMatchObject({ type: "document", document: { id: upload.id, caption: "Segue o boleto", filename: "boleto.pdf" } });

    const img = multipart({ sign: "false" }, { field: "medias", name: "foto.png", type: "image/png", data: Buffer.from("png") });
    expect((await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: img.body, headers: img.headers })).statusCode).toBe(200);
    expect(fake.messagesTo(c)[1]!.body).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: c, type: "image", image: { id: fake.uploads.at(-1)!.id } });
  });

  it("checks Meta's limits before storing or sending: 4,096-character text, 1,024-character caption, media types and sizes", async () => {
    const c = "5511933330009";
    const ticketId = await customerWrites(a, c, "Oi");
    const rows = async () => (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me", [ticketId])).n;
    const sendFile = (name: string, type: string, data: Buffer, body?: string) => {
      const form = multipart({ sign: "false", ...(body !== undefined ? { body } : {}) }, { field: "medias", name, type, data });
      return app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: form.body, headers: form.headers });
    };
    const refused = async (res: { statusCode: number; json(): { error: string } }, status: number, code: string) => {
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toBe(code);
    };

    await refused(await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "a".repeat(4097), sign: false } }), 400, "ERR_WAPP_TEXT_TOO_LONG");
    await refused(await sendFile("foto.png", "image/png", Buffer.from("png"), "b".repeat(1025)), 400, "ERR_WAPP_CAPTION_TOO_LONG");
    await refused(await sendFile("anim.gif", "image/gif", Buffer.from("GIF89a")), 400, "ERR_WAPP_MEDIA_TYPE_UNSUPPORTED");
    await refused(await sendFile("nota.wav", "audio/wav", Buffer.from("RIFF")), 400, "ERR_WAPP_MEDIA_TYPE_UNSUPPORTED");
    await refused(await sendFile("grande.png", "image/png", Buffer.alloc(5 * 1024 * 1024 + 1)), 413, "ERR_WAPP_MEDIA_TOO_LARGE");
    const staticWebp = Buffer.concat([Buffer.from("RIFF\0\0\0\0WEBPVP8 "), Buffer.alloc(150 * 1024)]);
    await refused(await sendFile("fig.webp", "image/webp", staticWebp), 413, "ERR_WAPP_MEDIA_TOO_LARGE");
    expect(await rows()).toBe(0);
    expect(fake.messagesTo(c)).toHaveLength(0);
    expect(fake.uploads.filter((u) => u.fileName === "grande.png")).toHaveLength(0);

    // at the limits: sent; an animated sticker may be up to 500 KB and goes as a sticker
    expect((await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "😀".repeat(4096), sign: false } })).statusCode).toBe(200);
    expect((await sendFile("foto.png", "image/png", Buffer.from("png"), "b".repeat(1024))).statusCode).toBe(200);
    const animated = Buffer.concat([Buffer.from("RIFF\0\0\0\0WEBPVP8X"), Buffer.from([10, 0, 0, 0, 0x02]), Buffer.alloc(300 * 1024)]);
    expect((await sendFile("fig.webp", "image/webp", animated)).statusCode).toBe(200);
    const sent = fake.messagesTo(c);
    expect(sent).toHaveLength(3);
    expect(sent[2]!.body).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: c, type: "sticker", sticker: { id: fake.uploads.at(-1)!.id } });
  });

  it("refuses a free-form message outside the 24-hour window before calling Meta; a template still goes", async () => {
    const c = "5511933330003";
    const ticketId = await customerWrites(a, c, "Oi", { ageSeconds: 25 * 3600 });
    const res = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Ainda precisa?", sign: false } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_WPP_OFFICIAL_SESSION_EXPIRED");
    expect(fake.messagesTo(c)).toEqual([]);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me", [ticketId])).n).toBe(0);

    const tpl = await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: a.admin.token, body: { templateId: tplId, variables: ["Ana", "4512"] } });
    expect(tpl.statusCode, tpl.body).toBe(200);
    expect(tpl.json()).toMatchObject({ body: "Olá Ana, seu pedido 4512 saiu para entrega.", fromMe: true, ack: 1 });
    expect(fake.messagesTo(c)[0]!.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: c,
      type: "template",
      template: { name: "pedido_enviado", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }, { type: "text", text: "4512" }] }] },
    });
    // a media-header template needs its media; a template not approved is refused
    const noMedia = await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: a.admin.token, body: { templateId: imageTplId, variables: ["Ana"] } });
    expect(noMedia.statusCode).toBe(400);
    const withMedia = await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, {
      token: a.admin.token,
      body: { templateId: imageTplId, variables: ["Ana"], headerMediaUrl: "https://cdn.loja.test/promo.jpg" },
    });
    expect(withMedia.statusCode).toBe(200);
    expect((fake.messagesTo(c)[1]!.body.template as { components: unknown[] }).components[0]).toEqual({
      type: "header",
      parameters: [{ type: "image", image: { link: "https://cdn.loja.test/promo.jpg" } }],
    });
    const pendingId = (await app.sql.one<{ id: number }>("SELECT id FROM whatsapp_templates WHERE business_id = $1 AND name = 'pendente'", [a.businessId])).id;
    expect((await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: a.admin.token, body: { templateId: pendingId, variables: ["a", "b"] } })).statusCode).toBe(400);
    // the customer answers: the window opens again
    await customerWrites(a, c, "Sim, obrigado");
    expect((await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Ótimo!", sign: false } })).statusCode).toBe(200);
  });

  it("maps Graph error 131047 (re-engagement) to ERR_WPP_OFFICIAL_SESSION_EXPIRED and other Graph errors to ERR_SENDING_WAPP_MSG", async () => {
    const c = "5511933330004";
    const ticketId = await customerWrites(a, c, "Oi");
    fake.windowClosedFor.add(c);
    const res = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Olá", sign: false } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_WPP_OFFICIAL_SESSION_EXPIRED");
    fake.windowClosedFor.delete(c);
    await sealStored(app.sql, app.ctx.secrets, "businesses", a.businessId, { access_token: "revoked" });
    try {
      const bad = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Olá", sign: false } });
      expect(bad.statusCode).toBe(502);
      expect(bad.json().error).toBe("ERR_SENDING_WAPP_MSG");
    } finally {
      await sealStored(app.sql, app.ctx.secrets, "businesses", a.businessId, { access_token: fake.accessToken });
      // the refused token marked the connection REAUTH_REQUIRED (next test): connected again for the others
      await app.api("POST", `/api/whatsappsession/${a.numbers[0]!.whatsappId}`, { token: a.admin.token });
    }
  });

  it("a token Meta refuses (error 190) marks the connection REAUTH_REQUIRED instead of CONNECTED; a new token and a reconnect bring it back", async () => {
    const c = "5511933330014";
    const ticketId = await customerWrites(a, c, "Oi");
    const w = a.numbers[0]!.whatsappId;
    const status = async () => (await app.api("GET", `/api/whatsapp/${w}`, { token: a.admin.token })).json().status;
    expect(await status()).toBe("CONNECTED");
    await sealStored(app.sql, app.ctx.secrets, "businesses", a.businessId, { access_token: "expired-token" });
    try {
      const bad = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Olá", sign: false } });
      expect(bad.json().error).toBe("ERR_SENDING_WAPP_MSG");
      expect(bad.json().message).toContain("Invalid OAuth access token");
      expect(await status()).toBe("REAUTH_REQUIRED");
      // reconnecting with the same refused token keeps it so
      expect((await app.api("PUT", `/api/whatsappsession/${w}`, { token: a.admin.token })).json().error).toBe("ERR_WAPP_NOT_INITIALIZED");
      expect(await status()).toBe("REAUTH_REQUIRED");
    } finally {
      await sealStored(app.sql, app.ctx.secrets, "businesses", a.businessId, { access_token: fake.accessToken });
    }
    expect((await app.api("POST", `/api/whatsappsession/${w}`, { token: a.admin.token })).json()).toMatchObject({ status: "CONNECTED" });
    expect((await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Olá", sign: false } })).statusCode).toBe(200);
  });

  it("cannot delete a sent message (the Cloud API has no revoke) and marks the contact's messages read", async () => {
    const c = "5511933330005";
    const lastId = "wamid.LAST-FROM-CUSTOMER";
    const ticketId = await customerWrites(a, c, "Oi");
    await customerWrites(a, c, "Tem alguém?", { id: lastId });
    const sent = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Sim!", sign: false } });
    const del = await app.api("DELETE", `/api/messages/${sent.json().messages[0].id}`, { token: a.admin.token });
    expect(del.json().error).toBe("ERR_DELETE_WAPP_MSG");
    expect((await app.sql.one<{ is_deleted: boolean }>("SELECT is_deleted FROM messages WHERE id = $1", [sent.json().messages[0].id])).is_deleted).toBe(false);

    await app.sql.exec("UPDATE tickets SET unread_messages = 2 WHERE id = $1", [ticketId]);
    expect((await app.api("POST", `/api/tickets/${ticketId}/read`, { token: a.admin.token })).statusCode).toBe(200);
    const read = fake.sent.filter((s) => s.body.status === "read").at(-1);
    expect(read?.body).toEqual({ messaging_product: "whatsapp", status: "read", message_id: lastId });
  });
});

describe("Cloud API driver: session", () => {
  it("connect verifies the number with Graph (no QR); disconnect stops sending; an unknown number stays disconnected", async () => {
    const w = a.numbers[0]!.whatsappId;
    const stop = await app.api("DELETE", `/api/whatsappsession/${w}`, { token: a.admin.token });
    expect(stop.json()).toMatchObject({ status: "DISCONNECTED", qrcode: "" });
    const c = "5511933330006";
    const ticketId = await customerWrites(a, c, "Oi");
    const refused = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Olá", sign: false } });
    expect(refused.json().error).toBe("ERR_WAPP_NOT_INITIALIZED");

    const before = fake.requests.length;
    const start = await app.api("POST", `/api/whatsappsession/${w}`, { token: a.admin.token });
    expect(start.json()).toMatchObject({ status: "CONNECTED", qrcode: "" });
    expect(fake.requests.slice(before)).toContain(`GET /v23.0/${a.numbers[0]!.phoneNumberId}`);
    expect((await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body: "Olá", sign: false } })).statusCode).toBe(200);

    // a number Meta no longer knows cannot connect
    await app.sql.exec("UPDATE official_numbers SET phone_number_id = '1' WHERE id = $1", [a.numbers[0]!.id]);
    try {
      const res = await app.api("PUT", `/api/whatsappsession/${w}`, { token: a.admin.token });
      expect(res.json().error).toBe("ERR_WAPP_NOT_INITIALIZED");
      expect((await app.sql.one<{ status: string }>("SELECT status FROM whatsapps WHERE id = $1", [w])).status).toBe("DISCONNECTED");
    } finally {
      await app.sql.exec("UPDATE official_numbers SET phone_number_id = $2 WHERE id = $1", [a.numbers[0]!.id, a.numbers[0]!.phoneNumberId]);
      await app.api("POST", `/api/whatsappsession/${w}`, { token: a.admin.token });
    }
  });
});

describe("template route access", () => {
  it("refuses without a session, on another company's ticket and with another business's template", async () => {
    const c = "5511933330007";
    const ticketId = await customerWrites(a, c, "Oi");
    expect((await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { body: { templateId: tplId } })).statusCode).toBe(401);
    fake.templates = [fakeTemplate("outra_conta")];
    const b = await officialTenant(app, fake, ["5551900000001"]);
    await syncBusiness(app, b.admin.token, b.businessId);
    const res = await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: b.admin.token, body: { templateId: tplId, variables: ["a", "b"] } });
    expect(res.statusCode).toBe(404);
    const otherTpl = (await app.sql.one<{ id: number }>("SELECT id FROM whatsapp_templates WHERE business_id = $1", [b.businessId])).id;
    const cross = await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: a.admin.token, body: { templateId: otherTpl, variables: ["a", "b"] } });
    expect(cross.statusCode).toBe(404);
    expect(fake.messagesTo(c)).toEqual([]);
  });
});
