import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/helper.js";
import { sealStored } from "../../../test/factories.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { WebhookLookups } from "./lookups.js";
import { processWebhookEvent } from "./process-event.js";
import { unprocessed } from "./repository.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, waitFor, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";

let app: TestApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;
beforeAll(async () => {
  fake = await FakeGraph.start();
  app = await createOfficialTestApp(fake);
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511911110001", "5511911110002"]);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const hook = (businessId: number) => `${base}/api/webhooks/whatsapp/${businessId}`;
const phone = (t: OfficialTenant, i: number) => ({ id: t.numbers[i]!.phoneNumberId, display_phone_number: t.numbers[i]!.displayPhoneNumber });
const eventsCount = async (businessId: number) =>
  (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM webhook_events WHERE business_id = $1", [businessId])).n;

async function messagesOf(companyId: number, number: string) {
  return app.sql.many<{ id: number; body: string; media_type: string; from_me: boolean; ack: number; provider_id: string; ticket_id: number; whatsapp_id: number; media_path: string | null; media_name: string | null; mimetype: string | null }>(
    `SELECT m.id, m.body, m.media_type, m.from_me, m.ack, m.provider_id, m.ticket_id, m.whatsapp_id, m.media_path, m.media_name, m.mimetype
       FROM messages m JOIN contacts c ON c.company_id = m.company_id AND c.id = m.contact_id
      WHERE m.company_id = $1 AND c.number = $2 ORDER BY m.id`,
    [companyId, number],
  );
}

/** An agent's text on the contact's ticket, through the API (accepting the ticket first). */
async function agentSends(t: OfficialTenant, number: string, body: string): Promise<{ ticketId: number; providerId: string; messageId: number }> {
  const ticket = await app.sql.one<{ id: number; status: string }>(
    `SELECT t.id, t.status FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
      WHERE t.company_id = $1 AND c.number = $2 AND t.status <> 'closed' ORDER BY t.id DESC LIMIT 1`,
    [t.companyId, number],
  );
  if (ticket.status !== "open") {
    const acc = await app.api("PUT", `/api/tickets/${ticket.id}`, { token: t.admin.token, body: { status: "open", userId: t.admin.id } });
    expect(acc.statusCode).toBe(200);
  }
  const res = await app.api("POST", `/api/messages/${ticket.id}`, { token: t.admin.token, body: { body, sign: false } });
  expect(res.statusCode, res.body).toBe(200);
  const m = res.json().messages[0];
  const row = await app.sql.one<{ provider_id: string }>("SELECT provider_id FROM messages WHERE id = $1", [m.id]);
  return { ticketId: ticket.id, providerId: row.provider_id, messageId: m.id };
}

describe("webhook verification handshake", () => {
  it("echoes hub.challenge for the business's verify token, and 403 otherwise", async () => {
    const url = (q: string) => `/api/webhooks/whatsapp/${a.businessId}?${q}`;
    const ok = await app.api("GET", url("hub.mode=subscribe&hub.verify_token=verify-token-123&hub.challenge=1158201444"));
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe("1158201444");
    expect(ok.headers["content-type"]).toContain("text/plain");
    expect((await app.api("GET", url("hub.mode=subscribe&hub.verify_token=wrong-token&hub.challenge=1"))).statusCode).toBe(403);
    expect((await app.api("GET", url("hub.mode=unsubscribe&hub.verify_token=verify-token-123&hub.challenge=1"))).statusCode).toBe(403);
    expect((await app.api("GET", url("hub.challenge=1"))).statusCode).toBe(403);
    const unknown = await app.api("GET", "/api/webhooks/whatsapp/999999?hub.mode=subscribe&hub.verify_token=verify-token-123&hub.challenge=1");
    expect(unknown.statusCode).toBe(403);
  });
});

describe("webhook signature", () => {
  it("rejects unsigned, badly signed and tampered deliveries with 401 and stores nothing", async () => {
    const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone(a, 0), { contacts: [{ wa_id: "5511988880000", name: "Forjado" }], messages: [P.text("5511988880000", "forjado")] })]]);
    const before = await eventsCount(a.businessId);
    const raw = JSON.stringify(payload);
    expect((await fake.deliver(hook(a.businessId), payload, { signature: null })).status).toBe(401);
    expect((await fake.deliver(hook(a.businessId), payload, { signature: fake.sign(raw, "another-secret") })).status).toBe(401);
    expect((await fake.deliver(hook(a.businessId), payload, { signature: "sha256=abc" })).status).toBe(401);
    expect((await fake.deliver(hook(a.businessId), payload, { raw: raw.replace("forjado", "FORJADO"), signature: fake.sign(raw) })).status).toBe(401);
    expect((await fake.deliver(`${base}/api/webhooks/whatsapp/999999`, payload)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(await eventsCount(a.businessId)).toBe(before);
    expect(await messagesOf(a.companyId, "5511988880000")).toEqual([]);
  });
});

describe("batched deliveries", () => {
  it("handles every entry, change, message and status; acks never move backwards; duplicates create nothing", async () => {
    const [c1, c2, c3] = ["5511977770001", "5511977770002", "5511977770003"];
    const first = P.webhook(fake.wabaId, [
      [
        P.messagesChange(phone(a, 0), {
          contacts: [
            { wa_id: c1, name: "Carla" },
            { wa_id: c2, name: "Caio" },
          ],
          messages: [
            P.text(c1, "Oi, preciso de ajuda"),
            P.text(c2, "Bom dia"),
            P.location(c1, { latitude: -23.5505, longitude: -46.6333, name: "Loja | Centro", address: "Praça da Sé" }),
            P.contactsMessage(c2, "Maria Souza", "+55 11 96666-5555"),
            P.reaction(c1, "wamid.unknown", "👍"),
            P.buttonReply(c1, "btn-1", "Falar com atendente"),
          ],
        }),
      ],
      [
        P.messagesChange(phone(a, 1), {
          contacts: [{ wa_id: c3, name: "Célia" }],
          messages: [P.text(c3, "Olá"), P.listReply(c3, "opt-2", "Segunda via", "Boleto")],
        }),
      ],
    ]);
    const res = await fake.deliver(hook(a.businessId), first);
    expect(res.status).toBe(200);
    await webhooksSettled(app, a.businessId);

    const m1 = await messagesOf(a.companyId, c1);
    expect(m1.map((m) => [m.media_type, m.body])).toEqual([
      ["chat", "Oi, preciso de ajuda"],
      ["locationMessage", "|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17&hl=pt-BR|Loja   Centro\nPraça da Sé"],
      ["chat", "Falar com atendente"],
      // a reaction to a message not stored here is kept as a message of its own (after the delivery's messages)
      ["chat", "👍"],
    ]);
    const m2 = await messagesOf(a.companyId, c2);
    expect(m2.map((m) => m.media_type)).toEqual(["chat", "vcard"]);
    expect(m2[1]!.body).toContain("FN:Maria Souza");
    expect(m2[1]!.body).toContain("TEL;type=CELL;waid=5511966665555:+55 11 96666-5555");
    const m3 = await messagesOf(a.companyId, c3);
    expect(m3.map((m) => m.body)).toEqual(["Olá", "Segunda via"]);
    // each contact on its number: one ticket per contact and connection
    expect(new Set(m1.map((m) => m.ticket_id)).size).toBe(1);
    expect(m1[0]!.whatsapp_id).toBe(a.numbers[0]!.whatsappId);
    expect(m3[0]!.whatsapp_id).toBe(a.numbers[1]!.whatsappId);
    const contact = await app.sql.one<{ name: string }>("SELECT name FROM contacts WHERE company_id = $1 AND number = $2", [a.companyId, c1]);
    expect(contact.name).toBe("Carla");
    const window = await app.sql.many("SELECT contact_number FROM official_conversations WHERE company_id = $1 ORDER BY contact_number", [a.companyId]);
    expect(window.map((w) => w.contact_number)).toEqual([c1, c2, c3]);

    // The same delivery again (Meta's retry): stored once, nothing new.
    const eventsBefore = await eventsCount(a.businessId);
    expect((await fake.deliver(hook(a.businessId), first)).status).toBe(200);
    expect(await eventsCount(a.businessId)).toBe(eventsBefore);

    // Agents answer; then statuses arrive batched (read before delivered for m1).
    const s1 = await agentSends(a, c1, "Claro, como posso ajudar?");
    const s2 = await agentSends(a, c1, "Pode me passar o pedido?");
    const s3 = await agentSends(a, c3, "Olá Célia");
    const s4 = await agentSends(a, c2, "Vou verificar");
    const second = P.webhook(fake.wabaId, [
      [
        P.messagesChange(phone(a, 0), {
          contacts: [{ wa_id: c1, name: "Carla" }],
          messages: [P.text(c1, "Pedido 4512")],
          statuses: [P.status(s1.providerId, "sent", c1), P.status(s1.providerId, "read", c1), P.status(s2.providerId, "delivered", c1)],
        }),
        P.messagesChange(phone(a, 0), {
          statuses: [P.status(s4.providerId, "sent", c2), P.status(s4.providerId, "failed", c2, [{ code: 131026, title: "Message undeliverable", details: "Receiver incapable" }])],
        }),
      ],
      [P.messagesChange(phone(a, 1), { statuses: [P.status(s3.providerId, "delivered", c3)] })],
    ]);
    expect((await fake.deliver(hook(a.businessId), second)).status).toBe(200);
    await webhooksSettled(app, a.businessId);
    const late = P.webhook(fake.wabaId, [[P.messagesChange(phone(a, 0), { statuses: [P.status(s1.providerId, "delivered", c1), P.status(s1.providerId, "sent", c1)] })]]);
    expect((await fake.deliver(hook(a.businessId), late)).status).toBe(200);
    await webhooksSettled(app, a.businessId);

    const ack = async (id: number) => (await app.sql.one<{ ack: number }>("SELECT ack FROM messages WHERE id = $1", [id])).ack;
    expect(await ack(s1.messageId)).toBe(4); // read, then a late delivered/sent: stays read
    expect(await ack(s2.messageId)).toBe(3);
    expect(await ack(s3.messageId)).toBe(3);
    expect(await ack(s4.messageId)).toBe(0); // failed
    const failure = await app.sql.one<{ status: string; error_code: number; error_title: string; error_detail: string }>(
      "SELECT status, error_code, error_title, error_detail FROM official_message_statuses WHERE provider_id = $1",
      [s4.providerId],
    );
    expect(failure).toEqual({ status: "failed", error_code: 131026, error_title: "Message undeliverable", error_detail: "Receiver incapable" });
    // the web sees the failure with Meta's error; delivered messages carry none
    const page = await app.api("GET", `/api/messages/${s4.ticketId}`, { token: a.admin.token });
    expect(page.statusCode).toBe(200);
    const shown = (page.json().messages as { id: number; sendError?: string | null }[]).find((m) => m.id === s4.messageId);
    expect(shown?.sendError).toBe("Message undeliverable (131026): Receiver incapable");
    const ok = (await app.api("GET", `/api/messages/${s1.ticketId}`, { token: a.admin.token })).json().messages as { id: number; sendError?: string | null }[];
    expect(ok.find((m) => m.id === s1.messageId)?.sendError).toBeNull();
    expect((await messagesOf(a.companyId, c1)).filter((m) => !m.from_me).map((m) => m.body)).toContain("Pedido 4512");

    // A different envelope repeating stored messages (a retry merged with a new one): only the new one is added.
    const count = (await messagesOf(a.companyId, c1)).length;
    const mixed = P.webhook(fake.wabaId, [
      [P.messagesChange(phone(a, 0), { contacts: [{ wa_id: c1, name: "Carla" }], messages: [...(first.entry[0]!.changes[0]!.value.messages as Record<string, unknown>[]).slice(0, 1), P.text(c1, "Novo")] })],
    ]);
    expect((await fake.deliver(hook(a.businessId), mixed)).status).toBe(200);
    await webhooksSettled(app, a.businessId);
    const after = await messagesOf(a.companyId, c1);
    expect(after.length).toBe(count + 1);
    expect(after.at(-1)!.body).toBe("Novo");
  });

  it("applies a status that arrives before the sent message is recorded", async () => {
    const c = "5511977770009";
    await fake.deliver(hook(a.businessId), P.webhook(fake.wabaId, [[P.messagesChange(phone(a, 0), { contacts: [{ wa_id: c, name: "Rui" }], messages: [P.text(c, "oi")] })]]));
    await webhooksSettled(app, a.businessId);
    const s = await agentSends(a, c, "Olá Rui");
    // pretend the row was not there yet when "delivered" came: the status waits and is applied later
    await app.sql.exec("UPDATE messages SET provider_id = NULL WHERE id = $1", [s.messageId]);
    await fake.deliver(hook(a.businessId), P.webhook(fake.wabaId, [[P.messagesChange(phone(a, 0), { statuses: [P.status(s.providerId, "delivered", c)] })]]));
    await webhooksSettled(app, a.businessId);
    await app.sql.exec("UPDATE messages SET provider_id = $2 WHERE id = $1", [s.messageId, s.providerId]);
    await waitFor(async () => (await app.sql.one<{ ack: number }>("SELECT ack FROM messages WHERE id = $1", [s.messageId])).ack === 3, 15_000, "late ack");
  });
});

describe("media", () => {
  it("downloads image, document and voice note through the media endpoint into storage and serves them to the company only", async () => {
    const c = "5511955550001";
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("fake-jpeg-bytes")]);
    const pdf = Buffer.from("%PDF-1.4 fake document");
    const ogg = Buffer.from("OggS fake voice");
    const imageId = fake.addMedia(jpeg, "image/jpeg");
    const docId = fake.addMedia(pdf, "application/pdf");
    const audioId = fake.addMedia(ogg, "audio/ogg; codecs=opus");
    const payload = P.webhook(fake.wabaId, [
      [
        P.messagesChange(phone(a, 0), {
          contacts: [{ wa_id: c, name: "Bia" }],
          messages: [
            P.media(c, "image", imageId, { mimeType: "image/jpeg", caption: "Olha a foto" }),
            P.media(c, "document", docId, { mimeType: "application/pdf", filename: "../../etc/boleto.pdf" }),
            P.media(c, "audio", audioId, { mimeType: "audio/ogg; codecs=opus", voice: true }),
          ],
        }),
      ],
    ]);
    expect((await fake.deliver(hook(a.businessId), payload)).status).toBe(200);
    await webhooksSettled(app, a.businessId);
    const rows = await messagesOf(a.companyId, c);
    expect(rows.map((r) => [r.media_type, r.body, r.mimetype])).toEqual([
      ["image", "Olha a foto", "image/jpeg"],
      ["application", "../../etc/boleto.pdf", "application/pdf"],
      ["audio", "", "audio/ogg"],
    ]);
    // stored under an opaque key, never the sender's file name
    for (const r of rows) expect(r.media_path).toMatch(new RegExp(`^${a.companyId}/\\d{4}-\\d{2}/[A-Za-z0-9_-]+\\.[a-z0-9]+$`));
    expect(fake.requests).toContain(`GET /v23.0/${imageId}`);
    expect(fake.requests).toContain(`GET /v23.0/media-download/${imageId}`);

    const served = await app.api("GET", `/api/messages/media/${rows[0]!.id}`, { token: a.admin.token });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    expect(served.rawPayload.equals(jpeg)).toBe(true);
    const doc = await app.api("GET", `/api/messages/media/${rows[1]!.id}`, { token: a.admin.token });
    expect(doc.rawPayload.equals(pdf)).toBe(true);

    const other = await officialTenant(app, fake, ["5531900000077"]);
    expect((await app.api("GET", `/api/messages/media/${rows[0]!.id}`, { token: other.admin.token })).statusCode).toBe(404);
    expect((await app.api("GET", `/api/messages/media/${rows[0]!.id}`)).statusCode).toBe(401);
  });

  it("retries a delivery whose media cannot be downloaded yet, without duplicating its other messages", async () => {
    const c = "5511955550002";
    const missing = "9999999999";
    const payload = P.webhook(fake.wabaId, [
      [P.messagesChange(phone(a, 0), { contacts: [{ wa_id: c, name: "Léo" }], messages: [P.text(c, "antes"), P.media(c, "image", missing, { mimeType: "image/png" })] })],
    ]);
    await fake.deliver(hook(a.businessId), payload);
    const event = await waitFor(
      () => app.sql.maybe<{ id: number; status: string }>("SELECT id, status FROM webhook_events WHERE business_id = $1 AND status = 'failed' ORDER BY id DESC LIMIT 1", [a.businessId]),
      15_000,
      "failed event",
    );
    expect((await messagesOf(a.companyId, c)).map((m) => m.body)).toEqual(["antes"]);
    fake.media.set(missing, { data: Buffer.from("png-bytes"), mimeType: "image/png" });
    await waitFor(
      async () => (await app.sql.one<{ status: string }>("SELECT status FROM webhook_events WHERE id = $1", [event.id])).status === "processed",
      30_000,
      "retried event",
    );
    expect((await messagesOf(a.companyId, c)).map((m) => m.media_type)).toEqual(["chat", "image"]);
  });
});

describe("number health", () => {
  it("phone_number_quality_update and account_update change the official number", async () => {
    const n = a.numbers[1]!;
    const digits = n.phoneNumber;
    await fake.deliver(hook(a.businessId), P.webhook(fake.wabaId, [[P.qualityUpdate(digits, "FLAGGED", "TIER_250")]]));
    await webhooksSettled(app, a.businessId);
    const row = () =>
      app.sql.one<Record<string, unknown>>(
        "SELECT messaging_limit, quality_score, operating_status, account_status, account_violation, violation_type, phone_status FROM official_numbers WHERE id = $1",
        [n.id],
      );
    expect(await row()).toMatchObject({ messaging_limit: "TIER_250", quality_score: "RED", operating_status: "FLAGGED" });

    fake.phone(n.phoneNumberId)!.quality_rating = "YELLOW";
    await fake.deliver(hook(a.businessId), P.webhook(fake.wabaId, [[P.qualityUpdate(digits, "UNFLAGGED", "TIER_1K")]]));
    await webhooksSettled(app, a.businessId);
    expect(await row()).toMatchObject({ messaging_limit: "TIER_1K", quality_score: "YELLOW", operating_status: "CONNECTED" });

    await fake.deliver(
      hook(a.businessId),
      P.webhook(fake.wabaId, [[P.accountUpdate({ phone_number: digits, event: "ACCOUNT_VIOLATION", violation_info: { violation_type: "SCAM" } })]]),
    );
    await webhooksSettled(app, a.businessId);
    expect(await row()).toMatchObject({ account_status: "ACCOUNT_VIOLATION", account_violation: true, violation_type: "SCAM", phone_status: "ACTIVE" });

    await fake.deliver(hook(a.businessId), P.webhook(fake.wabaId, [[P.accountUpdate({ event: "DISABLED_UPDATE", ban_info: { waba_ban_state: "DISABLE", waba_ban_date: "2025-01-01" } })]]));
    await webhooksSettled(app, a.businessId);
    expect(await row()).toMatchObject({ phone_status: "DISABLED", operating_status: "BANNED" });
    // without a phone number it concerns every number of the account
    const first = await app.sql.one<{ phone_status: string }>("SELECT phone_status FROM official_numbers WHERE id = $1", [a.numbers[0]!.id]);
    expect(first.phone_status).toBe("DISABLED");

    await fake.deliver(hook(a.businessId), P.webhook(fake.wabaId, [[P.accountUpdate({ event: "DISABLED_UPDATE", ban_info: { waba_ban_state: "REINSTATE" } })]]));
    await webhooksSettled(app, a.businessId);
    expect(await row()).toMatchObject({ phone_status: "ACTIVE", operating_status: "CONNECTED", account_violation: false });
  });
});

describe("deliveries arriving together", () => {
  it("stores each once in grouped writes, answers each after its own row, and a body PostgreSQL refuses fails alone", async () => {
    const customers = Array.from({ length: 30 }, (_, i) => `55119333${String(i).padStart(5, "0")}`);
    const deliveries = customers.map((c, i) =>
      P.webhook(fake.wabaId, [[P.messagesChange(phone(a, 0), { contacts: [{ wa_id: c, name: `Cliente ${i}` }], messages: [P.text(c, `junto ${i}`)] })]]),
    );
    const before = await eventsCount(a.businessId);
    // 30 deliveries and 5 of them again, all at once; and a text with \u0000 (valid JSON, refused by jsonb)
    const refused = P.webhook(fake.wabaId, [[P.messagesChange(phone(a, 0), { contacts: [{ wa_id: customers[0]!, name: "X" }], messages: [P.text(customers[0]!, "nul \u0000 aqui")] })]]);
    const results = await Promise.all([...deliveries, ...deliveries.slice(0, 5), refused].map((d) => fake.deliver(hook(a.businessId), d)));
    expect(results.slice(0, 35).map((r) => r.status)).toEqual(Array(35).fill(200));
    expect(results[35]!.status).toBe(400);
    expect(JSON.parse(results[35]!.text).error).toBe("ERR_VALIDATION");
    expect(await eventsCount(a.businessId)).toBe(before + 30);
    await webhooksSettled(app, a.businessId);
    for (const [i, c] of customers.entries()) expect((await messagesOf(a.companyId, c)).map((m) => m.body)).toEqual([`junto ${i}`]);
  });
});

describe("tenancy", () => {
  it("a business's webhook never reaches another company's numbers, and another company's secret cannot sign it", async () => {
    const b = await officialTenant(app, fake, ["5541900000001"]);
    const c = "5511944440001";
    // B's webhook naming A's phone number id: ignored
    const crossing = P.webhook(fake.wabaId, [[P.messagesChange(phone(a, 0), { contacts: [{ wa_id: c, name: "X" }], messages: [P.text(c, "intruso")] })]]);
    expect((await fake.deliver(hook(b.businessId), crossing)).status).toBe(200);
    await webhooksSettled(app, b.businessId);
    expect(await messagesOf(a.companyId, c)).toEqual([]);
    expect(await messagesOf(b.companyId, c)).toEqual([]);
    // B's own number works
    const own = P.webhook(fake.wabaId, [[P.messagesChange(phone(b, 0), { contacts: [{ wa_id: c, name: "X" }], messages: [P.text(c, "legítimo")] })]]);
    await fake.deliver(hook(b.businessId), own);
    await webhooksSettled(app, b.businessId);
    expect((await messagesOf(b.companyId, c)).map((m) => m.body)).toEqual(["legítimo"]);
    // A's business with a body signed by another secret
    await sealStored(app.sql, app.ctx.secrets, "businesses", b.businessId, { app_secret: "other-company-secret" });
    const res = await fake.deliver(hook(a.businessId), own, { signature: fake.sign(JSON.stringify(own), "other-company-secret") });
    expect(res.status).toBe(401);
  });
});

describe("routing by the WABA id in the payload", () => {
  it("an entry of another WABA changes that WABA's business (same app), never the business of the URL it arrived on", async () => {
    fake.templates = [fakeTemplate("aviso_entrega", { id: "771000000000771" })];
    const x = await officialTenant(app, fake, ["5511955550001"]);
    const y = await officialTenant(app, fake, ["5521955550002"]);
    const z = await officialTenant(app, fake, ["5531955550003"]);
    fake.templates = [];
    await app.sql.exec("UPDATE businesses SET waba_id = '222000000000222' WHERE id = $1", [y.businessId]);
    // z has that WABA too but under another app (another secret): the delivery's signature does not vouch for it
    await app.sql.exec("UPDATE businesses SET waba_id = '222000000000222' WHERE id = $1", [z.businessId]);
    await sealStored(app.sql, app.ctx.secrets, "businesses", z.businessId, { app_secret: "another-app-secret" });
    const states = async () =>
      (await app.sql.many<{ business_id: number; phone_status: string }>(
        "SELECT business_id, phone_status FROM official_numbers WHERE business_id = ANY($1::int[]) ORDER BY business_id",
        [[x.businessId, y.businessId, z.businessId]],
      )).map((r) => r.phone_status);
    const ban = P.webhook("222000000000222", [[P.accountUpdate({ event: "DISABLED_UPDATE", ban_info: { waba_ban_state: "DISABLE", waba_ban_date: "2025-01-01" } })]]);
    // Meta sends it to the app's single callback URL: here, x's
    expect((await fake.deliver(hook(x.businessId), ban)).status).toBe(200);
    await webhooksSettled(app, x.businessId);
    expect(await states()).toEqual(["ACTIVE", "DISABLED", "ACTIVE"]);
    const accounts = await app.sql.many<{ account_status: string }>("SELECT account_status FROM businesses WHERE id = ANY($1::int[]) ORDER BY id", [
      [x.businessId, y.businessId],
    ]);
    expect(accounts.map((r) => r.account_status)).toEqual(["APPROVED", "DISABLED_UPDATE"]);

    // a template status update of y's WABA (Meta's example shape), arriving on x's URL
    const paused = P.webhook("222000000000222", [
      [
        {
          field: "message_template_status_update",
          value: { event: "PAUSED", message_template_id: 771000000000771, message_template_name: "aviso_entrega", message_template_language: "pt_BR", reason: "NONE" },
        },
      ],
    ]);
    await fake.deliver(hook(x.businessId), paused);
    await webhooksSettled(app, x.businessId);
    const templates = await app.sql.many<{ status: string }>("SELECT status FROM whatsapp_templates WHERE business_id = ANY($1::int[]) ORDER BY business_id", [
      [x.businessId, y.businessId, z.businessId],
    ]);
    expect(templates.map((r) => r.status)).toEqual(["APPROVED", "PAUSED", "APPROVED"]);

    // a WABA no business of the app has: nothing changes, the delivery is still processed
    const stranger = P.webhook("999000000000999", [[P.accountUpdate({ event: "DISABLED_UPDATE", ban_info: { waba_ban_state: "DISABLE" } })]]);
    await fake.deliver(hook(x.businessId), stranger);
    await webhooksSettled(app, x.businessId);
    expect(await states()).toEqual(["ACTIVE", "DISABLED", "ACTIVE"]);
    const last = await app.sql.one<{ status: string }>("SELECT status FROM webhook_events WHERE business_id = $1 ORDER BY id DESC LIMIT 1", [x.businessId]);
    expect(last.status).toBe("processed");
  });
});

describe("a signed but malformed delivery", () => {
  it("is answered 200, retried a bounded number of times, then kept as failed with its error", async () => {
    const t = await officialTenant(app, fake, ["5511911110091"]);
    const malformed = {
      object: "whatsapp_business_account",
      entry: [{ id: fake.wabaId, changes: [{ field: "messages", value: { messaging_product: "whatsapp", messages: "not a list" } }] }],
    };
    const res = await fake.deliver(hook(t.businessId), malformed);
    expect(res.status).toBe(200);
    const row = () =>
      app.sql.one<{ id: number; status: string; attempts: number; error: string }>(
        "SELECT id, status, attempts, error FROM webhook_events WHERE business_id = $1 ORDER BY id DESC LIMIT 1",
        [t.businessId],
      );
    await waitFor(async () => (await row()).status === "failed", 15_000, "failed delivery");
    const id = (await row()).id;
    // the job's attempts (some may run on their own meanwhile): each records the error; the last one gives up
    const lookups = new WebhookLookups(app.sql, app.ctx.secrets);
    for (let i = 0; i < 10 && (await row()).attempts < 5; i++) await processWebhookEvent(app.ctx, lookups, id).then(
        () => "gave up",
        (err: unknown) => `retry asked: ${String(err)}`, // a rejection is how a job asks pg-boss for a retry
      );
    const final = await row();
    expect(final).toMatchObject({ status: "failed", attempts: 5 });
    expect(final.error).toContain("Entrega malformada (messages)");
    expect(final.error).toContain("messages");
    // out of attempts: neither a job nor the pending sweep touches it again
    await expect(processWebhookEvent(app.ctx, lookups, id)).resolves.toBeUndefined();
    expect((await row()).attempts).toBe(5);
    expect((await unprocessed(app.sql, 0, 5)).map((e) => e.id)).not.toContain(id);
  });
});
