import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/helper.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";

/** One person, one contact on the official API: Brazilian numbers in both forms, username users, number changes. */
let app: TestApp;
let fake: FakeGraph;
let base: string;
let a: OfficialTenant;
let tplId: number;
beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.templates = [fakeTemplate("retomar_contato", { components: [{ type: "BODY", text: "Olá! Podemos continuar?" }] })];
  app = await createOfficialTestApp(fake);
  base = await app.listen();
  a = await officialTenant(app, fake, ["5511911130001"]);
  tplId = (await app.sql.one<{ id: number }>("SELECT id FROM whatsapp_templates WHERE business_id = $1 AND name = 'retomar_contato'", [a.businessId])).id;
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const phone = () => ({ id: a.numbers[0]!.phoneNumberId, display_phone_number: a.numbers[0]!.displayPhoneNumber });

async function deliver(contacts: { wa_id?: string; name: string; user_id?: string; username?: string }[], messages: Record<string, unknown>[]) {
  const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone(), { ...(contacts.length ? { contacts } : {}), messages })]]);
  expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${a.businessId}`, payload)).status).toBe(200);
  await webhooksSettled(app, a.businessId);
}

interface ContactRow {
  id: number;
  name: string;
  number: string;
  wa_id: string | null;
  wa_user_id: string | null;
}
const contactsLike = (pattern: string) =>
  app.sql.many<ContactRow>("SELECT id, name, number, wa_id, wa_user_id FROM contacts WHERE company_id = $1 AND (number LIKE $2 OR wa_user_id LIKE $2) ORDER BY id", [
    a.companyId,
    pattern,
  ]);
const ticketsOf = (contactId: number) =>
  app.sql.many<{ id: number; status: string }>("SELECT id, status FROM tickets WHERE company_id = $1 AND contact_id = $2 ORDER BY id", [a.companyId, contactId]);
const bodiesOf = (ticketId: number) =>
  app.sql.many<{ body: string; from_me: boolean }>("SELECT body, from_me FROM messages WHERE company_id = $1 AND ticket_id = $2 ORDER BY id", [a.companyId, ticketId]).then((r) =>
    r.map((m) => `${m.from_me ? "agent" : "customer"}: ${m.body}`),
  );

async function agentWrites(ticketId: number, body: string) {
  return app.api("POST", `/api/messages/${ticketId}`, { token: a.admin.token, body: { body, sign: false } });
}

describe("Brazilian mobiles with and without the ninth digit", () => {
  it("a conversation the agent starts with the 13-digit number continues in the same ticket when the customer answers from the 12-digit form", async () => {
    // Meta knows this older account by its 8-digit form and answers every send with it
    fake.waIds.set("5511987650001", "551187650001");
    const created = await app.api("POST", "/api/tickets", {
      token: a.admin.token,
      body: { number: "+55 (11) 98765-0001", whatsappId: a.numbers[0]!.whatsappId, userId: a.admin.id, status: "open" },
    });
    expect(created.statusCode, created.body).toBe(200);
    const ticketId = created.json().id as number;
    const [contact] = await contactsLike("%87650001");
    expect(contact).toMatchObject({ number: "5511987650001", wa_id: null });

    // outside the 24-hour window the agent opens the conversation with a template
    const tpl = await app.api("POST", `/api/officialWhatsapp/ticket/${ticketId}/template`, { token: a.admin.token, body: { templateId: tplId, variables: [] } });
    expect(tpl.statusCode, tpl.body).toBe(200);
    expect(fake.messagesTo("5511987650001")).toHaveLength(1);
    // the wa_id Meta answered with is kept as the contact's WhatsApp id
    expect((await contactsLike("%87650001"))[0]).toMatchObject({ id: contact!.id, number: "5511987650001", wa_id: "551187650001" });

    // the customer answers; Meta names them by the 12-digit form
    await deliver([{ wa_id: "551187650001", name: "Joana Lima" }], [P.text("551187650001", "Oi, pode sim")]);
    const all = await contactsLike("%87650001");
    expect(all.map((c) => c.id)).toEqual([contact!.id]);
    expect(await ticketsOf(contact!.id)).toEqual([{ id: ticketId, status: "open" }]);
    expect(await bodiesOf(ticketId)).toEqual(["agent: Olá! Podemos continuar?", "customer: Oi, pode sim"]);

    // the 24-hour window is open: a free-form answer goes out, to the id WhatsApp uses
    const reply = await agentWrites(ticketId, "Perfeito, vamos lá");
    expect(reply.statusCode, reply.body).toBe(200);
    expect(fake.messagesTo("551187650001").map((m) => (m.body.text as { body: string }).body)).toEqual(["Perfeito, vamos lá"]);
  });

  it("a customer who first writes from the 12-digit form is found when an agent types the 13-digit number", async () => {
    await deliver([{ wa_id: "552187650002", name: "Rui" }], [P.text("552187650002", "Bom dia")]);
    const [contact] = await contactsLike("%87650002");
    expect(contact).toMatchObject({ number: "5521987650002", wa_id: "552187650002", name: "Rui" });
    const again = await app.api("POST", "/api/tickets", {
      token: a.admin.token,
      body: { number: "21987650002", whatsappId: a.numbers[0]!.whatsappId, userId: a.admin.id, status: "open" },
    });
    // the same person: the existing open ticket is named, no second contact is made
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("ERR_OTHER_OPEN_TICKET");
    expect(await contactsLike("%87650002")).toHaveLength(1);
  });
});

describe("users known only by their business-scoped user id", () => {
  const userId = "BR.1502576394655843";

  it("a message without a phone number opens a ticket on a contact identified by the user id, and the agent's answer goes to it", async () => {
    await deliver([{ name: "Marina", username: "@marina.doces", user_id: userId }], [P.textFromUser(userId, "Vocês entregam no sábado?")]);
    const [contact] = await contactsLike(userId);
    expect(contact).toMatchObject({ name: "Marina", number: userId, wa_id: null, wa_user_id: userId });
    const [ticket] = await ticketsOf(contact!.id);
    expect(await bodiesOf(ticket!.id)).toEqual(["customer: Vocês entregam no sábado?"]);

    await app.api("PUT", `/api/tickets/${ticket!.id}`, { token: a.admin.token, body: { status: "open", userId: a.admin.id } });
    const reply = await agentWrites(ticket!.id, "Entregamos sim!");
    expect(reply.statusCode, reply.body).toBe(200);
    const sent = fake.messagesTo(userId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ recipient: userId, type: "text", text: { body: "Entregamos sim!" } });
    expect(sent[0]!.body.to).toBeUndefined();
  });

  it("a later message carrying both the number and the user id gives that contact its number, in the same ticket", async () => {
    await deliver([{ wa_id: "5511987650003", name: "Marina", user_id: userId }], [P.textFromUser(userId, "Meu número é este", { phone: "5511987650003" })]);
    const contacts = await contactsLike("%87650003");
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ number: "5511987650003", wa_id: "5511987650003", wa_user_id: userId });
    const tickets = await ticketsOf(contacts[0]!.id);
    expect(tickets).toHaveLength(1);
    expect(await bodiesOf(tickets[0]!.id)).toEqual(["customer: Vocês entregam no sábado?", "agent: Entregamos sim!", "customer: Meu número é este"]);
  });

  it("a username contact and a number contact of the same person are linked into one, with both histories", async () => {
    const other = "BR.99887766554433";
    const created = await app.api("POST", "/api/contacts", { token: a.admin.token, body: { name: "Carlos Souza", number: "5531987650004" } });
    expect(created.statusCode, created.body).toBe(200);
    const phoneContactId = created.json().id as number;
    await deliver([{ name: "Carlos", username: "@carlos", user_id: other }], [P.textFromUser(other, "Oi, sou o Carlos")]);
    const [usernameContact] = await contactsLike(other);
    expect(usernameContact!.id).not.toBe(phoneContactId);

    await deliver([{ wa_id: "5531987650004", name: "Carlos", user_id: other }], [P.textFromUser(other, "Agora com número", { phone: "5531987650004" })]);
    const left = await app.sql.many<ContactRow>("SELECT id, name, number, wa_id, wa_user_id FROM contacts WHERE company_id = $1 AND id = ANY($2::int[])", [
      a.companyId,
      [phoneContactId, usernameContact!.id],
    ]);
    expect(left).toEqual([{ id: phoneContactId, name: "Carlos Souza", number: "5531987650004", wa_id: "5531987650004", wa_user_id: other }]);
    const tickets = await ticketsOf(phoneContactId);
    expect(tickets).toHaveLength(1);
    expect(await bodiesOf(tickets[0]!.id)).toEqual(["customer: Oi, sou o Carlos", "customer: Agora com número"]);
  });
});

describe("number changes", () => {
  it("user_changed_number moves the contact to the new number with its history; the next message lands in the same ticket", async () => {
    await deliver([{ wa_id: "5541987650005", name: "Bia" }], [P.text("5541987650005", "Primeira mensagem")]);
    const [before] = await contactsLike("%87650005");
    const [ticket] = await ticketsOf(before!.id);

    await deliver([], [P.numberChanged("5541987650005", "5541987650006", "Bia")]);
    expect(await contactsLike("%87650005")).toEqual([]);
    const [after] = await contactsLike("%87650006");
    expect(after).toMatchObject({ id: before!.id, name: "Bia", number: "5541987650006", wa_id: "5541987650006" });

    await deliver([{ wa_id: "5541987650006", name: "Bia" }], [P.text("5541987650006", "Mudei de número")]);
    expect(await ticketsOf(before!.id)).toEqual([{ id: ticket!.id, status: "pending" }]);
    expect(await bodiesOf(ticket!.id)).toEqual([
      "customer: Primeira mensagem",
      "customer: User Bia changed from 5541987650005 to 5541987650006",
      "customer: Mudei de número",
    ]);
  });
});
