import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../test/helper.js";
import * as whatsappRepo from "../domains/whatsapp/repository.js";
import type { InboundMessage } from "./driver.js";
import { connectionNumbers } from "./inbound.js";
import { processInboundBatch } from "./inbound-batch.js";
import { connectedSandbox, inbound, phoneOutbox } from "./testing.js";

let app: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-batch-"));
  app = await createTestApp({ dataDir });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const text = (id: string, from: string, body: string): InboundMessage => ({ providerId: id, from, pushName: `Cliente ${from.slice(-2)}`, body, mediaType: "chat" });

describe("processInboundBatch (a webhook delivery's messages together)", () => {
  it("stores existing tickets' messages in one go and routes new and menu tickets one by one, each customer in order", async () => {
    const t = await buildTenant(app);
    const q1 = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
    const q2 = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
    const wa = await connectedSandbox(app, t.admin.token, { queueIds: [q1, q2], greetingMessage: "Menu" });
    const [a, b, c] = ["5531966660001", "5531966660002", "5531966660003"];
    const ticketA = (await inbound(app, t.admin.token, wa, { number: a, body: "oi" })).ticketId;
    await inbound(app, t.admin.token, wa, { number: a, body: "1" }); // routed to Vendas
    const ticketC = (await inbound(app, t.admin.token, wa, { number: c, body: "oi" })).ticketId; // waiting in the menu
    const unreadBefore = (await app.sql.one<{ unread_messages: number }>("SELECT unread_messages FROM tickets WHERE id = $1", [ticketA])).unread_messages;

    const conn = { companyId: t.companyId, whatsappId: wa };
    const prepared = {
      connection: (await whatsappRepo.findWhatsapp(app.sql, t.companyId, wa))!,
      ownNumbers: await connectionNumbers(app.sql, t.companyId),
      checkedNew: true,
    };
    const batch = [text("BA1", a, "a1"), text("BB1", b, "b1"), text("BA2", a, "a2"), text("BC1", c, "2"), text("BA1", a, "a1 de novo"), text("BA3", a, "a3")];
    await processInboundBatch(app.ctx, conn, batch, prepared);

    const ofA = await app.sql.many<{ body: string }>("SELECT body FROM messages WHERE ticket_id = $1 AND provider_id LIKE 'BA%' ORDER BY id", [ticketA]);
    expect(ofA.map((m) => m.body)).toEqual(["a1", "a2", "a3"]);
    const rowA = await app.sql.one<{ unread_messages: number; last_message: string; queue_id: number }>(
      "SELECT unread_messages, last_message, queue_id FROM tickets WHERE id = $1",
      [ticketA],
    );
    expect(rowA).toEqual({ unread_messages: unreadBefore + 3, last_message: "a3", queue_id: q1 });
    // the messages' words are the ticket's search words (added by the batch's own UPDATE, migration 0821)
    const words = (id: number, q: string) => app.sql.one<{ found: boolean }>("SELECT search_words @@ $2::tsquery AS found FROM tickets WHERE id = $1", [id, q]);
    expect(await words(ticketA, "a1 & a2 & a3")).toEqual({ found: true });
    // ...and outside the batch the trigger still adds them (the flag is the batch transaction's only)
    await app.sql.exec(
      "INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me) SELECT company_id, id, contact_id, whatsapp_id, 'jabuticaba', true FROM tickets WHERE id = $1",
      [ticketA],
    );
    expect(await words(ticketA, "jabuticaba")).toEqual({ found: true });

    const ticketB = await app.sql.one<{ id: number; status: string; chatbot: boolean }>(
      "SELECT t.id, t.status, t.chatbot FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE c.company_id = $1 AND c.number = $2",
      [t.companyId, b],
    );
    expect(ticketB).toMatchObject({ status: "pending", chatbot: true });
    expect(await phoneOutbox(app, t.admin.token, wa, b)).toEqual(["Menu\n\n*1* - Vendas\n*2* - Suporte"]);
    expect(await app.sql.one("SELECT queue_id, chatbot FROM tickets WHERE id = $1", [ticketC])).toEqual({ queue_id: q2, chatbot: false });

    // the same delivery again (Meta's retry): nothing new
    const count = async () => (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE whatsapp_id = $1", [wa])).n;
    const before = await count();
    await processInboundBatch(app.ctx, conn, batch, prepared);
    expect(await count()).toBe(before);
  });

  it("creates new customers' contacts and tickets together, routes each first message and keeps each customer's order", async () => {
    const t = await buildTenant(app);
    const q1 = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
    const q2 = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
    const wa = await connectedSandbox(app, t.admin.token, { queueIds: [q1, q2], greetingMessage: "Menu" });
    const single = await connectedSandbox(app, t.admin.token, { name: "Loja", queueIds: [q1] });
    const [d, e, f] = ["5531977770001", "5531977770002", "5531977770003"];
    // f talked before: a closed ticket (its next message may be a rating, so it goes the per-message way)
    const old = (await inbound(app, t.admin.token, wa, { number: f, body: "oi" })).ticketId;
    await app.sql.exec("UPDATE tickets SET status = 'closed' WHERE id = $1", [old]);
    const prepare = async (id: number) => ({
      connection: (await whatsappRepo.findWhatsapp(app.sql, t.companyId, id))!,
      ownNumbers: await connectionNumbers(app.sql, t.companyId),
      checkedNew: true,
    });
    const batch = [text("ND1", d, "oi"), text("NE1", e, "bom dia"), text("ND2", d, "2"), text("NF1", f, "olá"), text("ND3", d, "obrigado")];
    await processInboundBatch(app.ctx, { companyId: t.companyId, whatsappId: wa }, batch, await prepare(wa));

    const ticketOf = (number: string) =>
      app.sql.many<{ id: number; status: string; chatbot: boolean; queue_id: number | null; last_message: string; unread_messages: number }>(
        `SELECT t.id, t.status, t.chatbot, t.queue_id, t.last_message, t.unread_messages FROM tickets t JOIN contacts c ON c.id = t.contact_id
          WHERE c.company_id = $1 AND c.number = $2 AND t.whatsapp_id = $3 AND t.status <> 'closed'`,
        [t.companyId, number, wa],
      );
    const [td] = await ticketOf(d);
    expect(td).toMatchObject({ status: "pending", chatbot: false, queue_id: q2, last_message: "obrigado" });
    const ofD = await app.sql.many<{ body: string; from_me: boolean }>("SELECT body, from_me FROM messages WHERE ticket_id = $1 ORDER BY id", [td!.id]);
    expect(ofD.filter((m) => !m.from_me).map((m) => m.body)).toEqual(["oi", "2", "obrigado"]);
    // the menu went out before the customer's choice was handled
    expect(ofD.findIndex((m) => m.from_me)).toBe(1);
    expect((await phoneOutbox(app, t.admin.token, wa, d))[0]).toBe("Menu\n\n*1* - Vendas\n*2* - Suporte");
    const te = await ticketOf(e);
    expect(te).toEqual([expect.objectContaining({ status: "pending", chatbot: true, queue_id: null, unread_messages: 1 })]);
    expect(await phoneOutbox(app, t.admin.token, wa, e)).toEqual(["Menu\n\n*1* - Vendas\n*2* - Suporte"]);
    const tf = await ticketOf(f);
    expect(tf).toEqual([expect.objectContaining({ chatbot: true, unread_messages: 1 })]);
    expect(tf[0]!.id).not.toBe(old);
    const contacts = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1 AND number = ANY($2::text[])", [
      t.companyId,
      [d, e, f],
    ]);
    expect(contacts.n).toBe(3);
    const tracked = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_traking WHERE ticket_id = ANY($1::int[])", [[td!.id, te[0]!.id]]);
    expect(tracked.n).toBe(2);

    // Meta's retry of the delivery: nothing new
    const count = async () => (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE whatsapp_id = $1", [wa])).n;
    const before = await count();
    await processInboundBatch(app.ctx, { companyId: t.companyId, whatsappId: wa }, batch, await prepare(wa));
    expect(await count()).toBe(before);

    // one queue: the new ticket is in it at once, no menu
    const g = "5531977770004";
    await processInboundBatch(app.ctx, { companyId: t.companyId, whatsappId: single }, [text("NG1", g, "oi")], await prepare(single));
    const tg = await app.sql.one<{ queue_id: number | null; chatbot: boolean }>(
      "SELECT t.queue_id, t.chatbot FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE c.company_id = $1 AND c.number = $2",
      [t.companyId, g],
    );
    expect(tg).toEqual({ queue_id: q1, chatbot: false });
  });

  it("opens returning customers' tickets together; a rating reply and a changed id still take the per-message way", async () => {
    const t = await buildTenant(app);
    const q1 = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
    await app.sql.exec("UPDATE queues SET greeting_message = 'Olá de novo' WHERE id = $1", [q1]);
    const wa = await connectedSandbox(app, t.admin.token, { queueIds: [q1] });
    const [back, rater, moved] = ["5531988880001", "5531988880002", "5531988880003"];
    const closed: Record<string, number> = {};
    for (const n of [back, rater, moved]) {
      closed[n] = (await inbound(app, t.admin.token, wa, { number: n, body: "primeira conversa" })).ticketId;
      await app.sql.exec("UPDATE tickets SET status = 'closed' WHERE id = $1", [closed[n]]);
    }
    // the rater was asked for a rating when the ticket closed; the moved one now writes under another WhatsApp id
    await app.sql.exec("UPDATE tickets SET rating_until = now() + interval '1 hour' WHERE id = $1", [closed[rater]]);
    await app.sql.exec("UPDATE contacts SET wa_id = '553188880003' WHERE company_id = $1 AND number = $2", [t.companyId, moved]);
    const contactsBefore = (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1", [t.companyId])).n;
    const prepared = {
      connection: (await whatsappRepo.findWhatsapp(app.sql, t.companyId, wa))!,
      ownNumbers: await connectionNumbers(app.sql, t.companyId),
      checkedNew: true,
    };
    await processInboundBatch(app.ctx, { companyId: t.companyId, whatsappId: wa }, [text("RB1", back, "voltei"), text("RR1", rater, "5"), text("RM1", moved, "oi")], prepared);

    const active = (number: string) =>
      app.sql.maybe<{ id: number; queue_id: number | null; customer: string[] }>(
        `SELECT t.id, t.queue_id, ARRAY(SELECT body FROM messages m WHERE m.ticket_id = t.id AND NOT m.from_me ORDER BY m.id) AS customer
           FROM tickets t JOIN contacts c ON c.id = t.contact_id
          WHERE c.company_id = $1 AND c.number = $2 AND t.whatsapp_id = $3 AND t.status <> 'closed'`,
        [t.companyId, number, wa],
      );
    // the returning customer: a new ticket in the queue, greeted, the old one untouched
    const tb = await active(back);
    expect(tb).toMatchObject({ queue_id: q1, customer: ["voltei"] });
    expect(tb!.id).not.toBe(closed[back]);
    expect(await phoneOutbox(app, t.admin.token, wa, back)).toContain("Olá de novo");
    // the rating reply: recorded on the closed ticket, no new ticket
    expect(await active(rater)).toBeNull();
    expect(await app.sql.one("SELECT rate FROM ticket_ratings WHERE ticket_id = $1", [closed[rater]])).toEqual({ rate: 5 });
    // the changed id: recorded on the contact, and the message in a new ticket
    expect(await app.sql.one("SELECT wa_id FROM contacts WHERE company_id = $1 AND number = $2", [t.companyId, moved])).toEqual({ wa_id: moved });
    expect(await active(moved)).toMatchObject({ customer: ["oi"] });
    // no contact created for anyone of them
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1", [t.companyId])).n).toBe(contactsBefore);
  });

  it("ignores messages from the company's own connection numbers", async () => {
    const t = await buildTenant(app);
    const wa = await connectedSandbox(app, t.admin.token, { name: "Loja A" });
    const other = await connectedSandbox(app, t.admin.token, { name: "Loja B" });
    const otherNumber = (await app.sql.one<{ number: string }>("SELECT number FROM whatsapps WHERE id = $1", [other])).number;
    const prepared = {
      connection: (await whatsappRepo.findWhatsapp(app.sql, t.companyId, wa))!,
      ownNumbers: await connectionNumbers(app.sql, t.companyId),
      checkedNew: true,
    };
    await processInboundBatch(app.ctx, { companyId: t.companyId, whatsappId: wa }, [text("OWN1", otherNumber, "eco")], prepared);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE provider_id = 'OWN1'")).n).toBe(0);
  });
});
