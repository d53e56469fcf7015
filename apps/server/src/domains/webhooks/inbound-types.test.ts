import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/helper.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, officialTenant, waitFor, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";

/** Every inbound kind Meta documents reaches the agent, in Meta's own payload shapes. */
let app: TestApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;
beforeAll(async () => {
  fake = await FakeGraph.start();
  app = await createOfficialTestApp(fake);
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511911120001"]);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const phone = () => ({ id: a.numbers[0]!.phoneNumberId, display_phone_number: a.numbers[0]!.displayPhoneNumber });

async function deliver(contact: string, name: string, messages: Record<string, unknown>[], statuses?: Record<string, unknown>[]) {
  const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone(), { contacts: [{ wa_id: contact, name }], messages, ...(statuses ? { statuses } : {}) })]]);
  const res = await fake.deliver(`${base}/api/webhooks/whatsapp/${a.businessId}`, payload);
  expect(res.status).toBe(200);
  await webhooksSettled(app, a.businessId);
}

interface Row {
  id: number;
  provider_id: string;
  body: string;
  media_type: string;
  media_path: string | null;
  ticket_id: number;
  reactions: { from: string; emoji: string }[];
  referral: Record<string, unknown> | null;
  media_unavailable: boolean;
  unsupported: boolean;
  is_edited: boolean;
  is_deleted: boolean;
  quoted_msg_id: number | null;
  created_at: Date;
}

function rowsOf(number: string) {
  return app.sql.many<Row>(
    `SELECT m.id, m.provider_id, m.body, m.media_type, m.media_path, m.ticket_id, m.reactions, m.referral, m.media_unavailable, m.unsupported,
            m.is_edited, m.is_deleted, m.quoted_msg_id, m.created_at
       FROM messages m JOIN contacts c ON c.company_id = m.company_id AND c.id = m.contact_id
      WHERE m.company_id = $1 AND c.number = $2 ORDER BY m.id`,
    [a.companyId, number],
  );
}

const openTicket = (number: string) =>
  app.sql.maybe<{ id: number; status: string; last_message: string }>(
    `SELECT t.id, t.status, t.last_message FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
      WHERE t.company_id = $1 AND c.number = $2 AND t.status <> 'closed'`,
    [a.companyId, number],
  );

/** The agent's text on the contact's ticket; its wamid. */
async function agentSends(ticketId: number, body: string): Promise<{ id: number; providerId: string }> {
  await app.api("PUT", `/api/tickets/${ticketId}`, { token: a.admin.token, body: { status: "open", userId: a.admin.id } });
  const res = await app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body, sign: false } });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().messages[0].id as number;
  return { id, providerId: (await app.sql.one<{ provider_id: string }>("SELECT provider_id FROM messages WHERE id = $1", [id])).provider_id };
}

async function apiMessage(ticketId: number, id: number) {
  const page = await app.api("GET", `/api/messages/${ticketId}`, { token: a.admin.token });
  expect(page.statusCode).toBe(200);
  return (page.json().messages as Record<string, unknown>[]).find((m) => m.id === id)!;
}

describe("inbound kinds as Meta sends them", () => {
  it("a catalog order is a readable message with items, quantities, prices and total, and opens a ticket", async () => {
    const c = "5511920000001";
    await deliver(c, "Olga", [
      P.order(
        c,
        [
          { product_retailer_id: "di9ozbzfi4", quantity: 2, item_price: 7.99, currency: "USD" },
          { product_retailer_id: "camiseta-p", quantity: 1, item_price: 49.9, currency: "USD" },
        ],
        "Love these!",
      ),
    ]);
    const [row] = await rowsOf(c);
    expect(row!.media_type).toBe("chat");
    // pt-BR currency format (Intl puts a no-break space after the symbol)
    expect(row!.body).toBe("🛒 Pedido\n2 × di9ozbzfi4 — US$\u00a07,99\n1 × camiseta-p — US$\u00a049,90\nTotal: US$\u00a065,88\nLove these!");
    expect((await openTicket(c))?.status).toBe("pending");
  });

  it("a Flow answer shows the submitted fields of response_json (without the flow token)", async () => {
    const c = "5511920000002";
    await deliver(c, "Fábio", [P.flowReply(c, { nome: "Fábio", data: "2026-12-01", servicos: ["corte", "barba"] })]);
    const [row] = await rowsOf(c);
    expect(row!.body).toBe("📋 Formulário respondido\nnome: Fábio\ndata: 2026-12-01\nservicos: corte, barba");
    expect(await openTicket(c)).not.toBeNull();
  });

  it("an unsupported (error-only) message is stored marked unsupported, opens a ticket and is previewed, never an empty bubble", async () => {
    const c = "5511920000003";
    await deliver(c, "Una", [P.unsupported(c, "poll_creation")]);
    const [row] = await rowsOf(c);
    expect(row).toMatchObject({ body: "", media_type: "chat", unsupported: true });
    const ticket = await openTicket(c);
    expect(ticket?.last_message).toBe("⚠️ Mensagem não suportada");
    expect(await apiMessage(ticket!.id, row!.id)).toMatchObject({ unsupported: true, mediaUnavailable: false, reactions: [], referral: null });
  });

  it("keeps the click-to-WhatsApp ad referral on the message, and uses Meta's timestamp as the message time", async () => {
    const c = "5511920000004";
    const sentAt = "1739321024"; // Meta's example: 2025-02-12T00:43:44Z
    await deliver(c, "Rita", [P.text(c, "Vi o anúncio", { referral: P.adReferral, timestamp: sentAt })]);
    const [row] = await rowsOf(c);
    expect(row!.referral).toMatchObject({ source_type: "ad", source_id: "120226305854810726", headline: "Chat with us", ctwa_clid: "Aff-n8ZTODiE79d22KtAwQKj9e_mIEOOj27vDVwFjN80dp4_0N" });
    expect(row!.created_at.toISOString()).toBe("2025-02-12T00:43:44.000Z");
    const shown = await apiMessage(row!.ticket_id, row!.id);
    expect(shown.createdAt).toBe("2025-02-12T00:43:44.000Z");
    expect(shown.referral).toEqual({ sourceUrl: "https://fb.me/3cr4Wqqkv", sourceType: "ad", sourceId: "120226305854810726", headline: "Chat with us", body: "Chat with us for 20% off!" });
  });

  it("several contact cards in one message keep every card", async () => {
    const c = "5511920000005";
    await deliver(c, "Caco", [P.contactsMessage(c, "Ana Lima", "+55 11 95555-0001", { name: "Beto Reis", phone: "+55 21 94444-0002" })]);
    const [row] = await rowsOf(c);
    expect(row!.media_type).toBe("vcard");
    expect(row!.body.match(/BEGIN:VCARD/g)).toHaveLength(2);
    expect(row!.body).toContain("FN:Ana Lima");
    expect(row!.body).toContain("FN:Beto Reis");
  });
});

describe("reactions", () => {
  it("land on the message they react to: one per sender, replaced by a new one, removed by an empty one; no message row of their own", async () => {
    const c = "5511920000010";
    await deliver(c, "Reinaldo", [P.text(c, "Oi")]);
    const ticket = (await openTicket(c))!;
    const sent = await agentSends(ticket.id, "Olá! Em que posso ajudar?");
    const count = (await rowsOf(c)).length;

    await deliver(c, "Reinaldo", [P.reaction(c, sent.providerId, "👍")]);
    expect((await apiMessage(ticket.id, sent.id)).reactions).toEqual([{ from: c, emoji: "👍" }]);
    await deliver(c, "Reinaldo", [P.reaction(c, sent.providerId, "❤️")]);
    expect((await apiMessage(ticket.id, sent.id)).reactions).toEqual([{ from: c, emoji: "❤️" }]);
    await deliver(c, "Reinaldo", [P.reaction(c, sent.providerId)]); // removed: Meta omits `emoji`
    expect((await apiMessage(ticket.id, sent.id)).reactions).toEqual([]);
    expect((await rowsOf(c)).length).toBe(count);
  });

  it("a reaction from a new contact (to a message not stored here) opens a ticket with the emoji", async () => {
    const c = "5511920000011";
    await deliver(c, "Nina", [P.reaction(c, "wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=", "🙏")]);
    const rows = await rowsOf(c);
    expect(rows.map((r) => [r.media_type, r.body])).toEqual([["chat", "🙏"]]);
    const ticket = await openTicket(c);
    expect(ticket?.status).toBe("pending");
    expect(ticket?.last_message).toBe("🙏");
  });
});

describe("edits and revokes", () => {
  it("mark the stored message edited (new text) or deleted, as the Baileys channel does; an edit of an unknown message is kept as a message", async () => {
    const c = "5511920000020";
    const original = P.text(c, "Quero 2 unidades");
    await deliver(c, "Edu", [original]);
    await deliver(c, "Edu", [P.edit(c, original.id, "Quero 3 unidades")]);
    let [row] = await rowsOf(c);
    expect(row).toMatchObject({ body: "Quero 3 unidades", is_edited: true, is_deleted: false });
    expect((await openTicket(c))?.last_message).toBe("Quero 3 unidades");
    await deliver(c, "Edu", [P.revoke(c, original.id)]);
    [row] = await rowsOf(c);
    expect(row).toMatchObject({ is_deleted: true });
    expect((await apiMessage(row!.ticket_id, row!.id)).isDeleted).toBe(true);

    await deliver(c, "Edu", [P.edit(c, "wamid.NOT-STORED-HERE", "texto corrigido")]);
    expect((await rowsOf(c)).map((r) => r.body)).toEqual(["Quero 3 unidades", "texto corrigido"]);
  });
});

describe("another contact's message", () => {
  it("cannot be reacted to, edited or revoked by a contact of another conversation", async () => {
    const [owner, other] = ["5511920000050", "5511920000051"];
    const original = P.text(owner, "Meu endereço é Rua A, 10");
    await deliver(owner, "Dono", [original]);
    await deliver(other, "Outro", [P.reaction(other, original.id, "😡"), P.edit(other, original.id, "Rua B, 99"), P.revoke(other, original.id)]);
    const [row] = await rowsOf(owner);
    expect(row).toMatchObject({ body: "Meu endereço é Rua A, 10", reactions: [], is_edited: false, is_deleted: false });
  });
});

describe("statuses", () => {
  it("played moves a voice note to ack 5 (and a late read does not lower it)", async () => {
    const c = "5511920000030";
    await deliver(c, "Paula", [P.text(c, "Manda um áudio")]);
    const ticket = (await openTicket(c))!;
    const sent = await agentSends(ticket.id, "ok");
    await deliver(c, "Paula", [], [P.status(sent.providerId, "played", c)]);
    await deliver(c, "Paula", [], [P.status(sent.providerId, "read", c)]);
    expect((await apiMessage(ticket.id, sent.id)).ack).toBe(5);
  });
});

describe("media Meta cannot provide", () => {
  it("is stored with its caption and a 'media unavailable' mark once the retries give up, not dropped", async () => {
    const c = "5511920000040";
    const payload = P.webhook(fake.wabaId, [
      [P.messagesChange(phone(), { contacts: [{ wa_id: c, name: "Mel" }], messages: [P.media(c, "image", "8888888888", { mimeType: "image/jpeg", caption: "Foto do defeito" })] })],
    ]);
    await fake.deliver(`${base}/api/webhooks/whatsapp/${a.businessId}`, payload);
    const row = await waitFor(async () => (await rowsOf(c))[0], 90_000, "the message stored without its media");
    expect(row).toMatchObject({ body: "Foto do defeito", media_type: "image", media_path: null, media_unavailable: true });
    const ticket = await openTicket(c);
    expect(ticket?.last_message).toBe("Foto do defeito");
    expect(await apiMessage(ticket!.id, row.id)).toMatchObject({ mediaUnavailable: true, mediaUrl: null, body: "Foto do defeito" });
  }, 120_000);
});
