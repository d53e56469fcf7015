import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, setSetting } from "../../channels/testing.js";

/**
 * The contact's history obeys who may see what (1-core §2 conversation, §6 roles): GET /messages of a
 * ticket pages over the contact's tickets on the connection, but leaves out the messages of tickets the
 * viewer may not open, unless the company enables shareContactHistory; media and notes follow.
 */
let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let vendas: number;
let financeiro: number;
let wa: number;
let seq = 0;
const newNumber = () => `5531${String(900000000 + ++seq * 7919).slice(0, 9)}`;
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-history-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
  vendas = await buildQueue(app.sql, t.companyId, { name: "Vendas", color: "#00aa00" });
  financeiro = await buildQueue(app.sql, t.companyId, { name: "Financeiro", color: "#aa0000" });
  await app.sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, t.user.id, vendas]);
  wa = await connectedSandbox(app, t.admin.token, { queueIds: [vendas] });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });
const bodies = (page: { messages: { body: string }[] }) => page.messages.map((m) => m.body);

/** Customer messages landing in one ticket, then the ticket moved to `queueId` and closed (or left open). */
async function ticketWith(number: string, texts: string[], queueId: number, o: { close?: boolean; image?: boolean } = {}) {
  let ticketId = 0;
  const ids: number[] = [];
  for (const body of texts) {
    const r = await inbound(app, t.admin.token, wa, { number, body });
    ticketId = r.ticketId;
    ids.push(r.messageId);
  }
  let imageId: number | null = null;
  if (o.image) {
    const r = await inbound(app, t.admin.token, wa, { number, body: "comprovante", mediaType: "image", mediaBase64: PNG.toString("base64"), mimetype: "image/png", mediaName: "comprovante.png" });
    imageId = r.messageId;
    ids.push(r.messageId);
  }
  await app.sql.exec(`UPDATE tickets SET queue_id = $2, user_id = NULL, status = $3 WHERE id = $1`, [ticketId, queueId, o.close === false ? "pending" : "closed"]);
  return { ticketId, ids, imageId };
}

describe("the contact's history and who may see it", () => {
  it("an agent of Vendas does not read, through the contact's new ticket, a closed Financeiro ticket it may not open", async () => {
    await setSetting(app, t.companyId, "shareContactHistory", "disabled");
    const number = newNumber();
    const fin = await ticketWith(number, ["fatura atrasada", "segunda via"], financeiro, { image: true });
    const mine = await ticketWith(number, ["oi de novo"], vendas, { close: false });
    expect((await api("PUT", `/api/tickets/${mine.ticketId}`, t.user.token, { action: "accept" })).statusCode).toBe(200);
    await app.sql.exec("INSERT INTO ticket_notes (company_id, ticket_id, contact_id, user_id, note) SELECT company_id, id, contact_id, $2, 'nota do financeiro' FROM tickets WHERE id = $1", [
      fin.ticketId,
      t.admin.id,
    ]);
    const contactId = (await app.sql.one<{ contact_id: number }>("SELECT contact_id FROM tickets WHERE id = $1", [mine.ticketId])).contact_id;

    // the closed Financeiro ticket itself is refused to the agent
    expect((await api("GET", `/api/tickets/${fin.ticketId}`, t.user.token)).statusCode).toBe(403);
    expect((await api("GET", `/api/messages/${fin.ticketId}`, t.user.token)).statusCode).toBe(403);

    const page = (await api("GET", `/api/messages/${mine.ticketId}`, t.user.token)).json();
    expect(bodies(page)).toEqual(["oi de novo"]);
    expect(page).toMatchObject({ hasMore: false, count: 1 });
    expect(page.hidden).toEqual([{ beforeMessageId: mine.ids[0], count: 3, queue: { id: financeiro, name: "Financeiro", color: "#aa0000" } }]);

    // the hidden message's media and the hidden ticket's notes are refused too
    const media = await api("GET", `/api/messages/media/${fin.imageId}`, t.user.token);
    expect(media.statusCode).toBe(403);
    expect(media.json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${fin.ticketId}`, t.user.token)).json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${mine.ticketId}&contactId=${contactId}`, t.user.token)).json()).toEqual([]);
    // nor may a reply quote it (the answer would carry its text)
    const quote = await api("POST", `/api/messages/${mine.ticketId}`, t.user.token, { body: "sobre isso", quotedMsg: { id: fin.ids[0] } });
    expect(quote.statusCode).toBe(400);
    expect(quote.json().error).toBe("ERR_VALIDATION");

    // the customer replies quoting the Financeiro message: neither the page nor the live event carries its text
    const quotedProvider = (await app.sql.one<{ provider_id: string }>("SELECT provider_id FROM messages WHERE id = $1", [fin.ids[0]])).provider_id;
    const sent: { event: string; payload: { message?: { body: string; quotedMsg: unknown } } }[] = [];
    const emit = app.ctx.realtime.emit.bind(app.ctx.realtime);
    app.ctx.realtime.emit = (room, event, payload) => {
      sent.push({ event, payload: payload as (typeof sent)[number]["payload"] });
      emit(room, event, payload);
    };
    const reply = await inbound(app, t.admin.token, wa, { number, body: "essa aqui", quotedId: quotedProvider });
    app.ctx.realtime.emit = emit;
    expect(reply.ticketId).toBe(mine.ticketId);
    const live = sent.find((e) => e.event.endsWith("-appMessage") && e.payload.message?.body === "essa aqui");
    expect(live?.payload.message?.quotedMsg).toBeNull();
    const withReply = (await api("GET", `/api/messages/${mine.ticketId}`, t.user.token)).json();
    expect(withReply.messages.map((m: { body: string; quotedMsg: unknown }) => [m.body, m.quotedMsg])).toEqual([
      ["oi de novo", null],
      ["essa aqui", null],
    ]);
    const adminView = (await api("GET", `/api/messages/${mine.ticketId}`, t.admin.token)).json();
    expect(adminView.messages.at(-1).quotedMsg).toMatchObject({ id: fin.ids[0], body: "fatura atrasada" });

    // the admin (and the supervisor, who may show all) read the whole history
    for (const token of [t.admin.token, t.supervisor.token]) {
      const all = (await api("GET", `/api/messages/${mine.ticketId}`, token)).json();
      expect(bodies(all)).toEqual(["fatura atrasada", "segunda via", "comprovante", "oi de novo", "essa aqui"]);
      expect(all.hidden).toEqual([]);
      expect((await api("GET", `/api/messages/media/${fin.imageId}`, token)).statusCode).toBe(200);
    }
    // another company sees nothing of it
    expect((await api("GET", `/api/messages/${mine.ticketId}`, other.admin.token)).statusCode).toBe(404);
    expect((await api("GET", `/api/messages/media/${fin.imageId}`, other.admin.token)).statusCode).toBe(404);

    // the company shares the whole history: messages, media and notes of the contact's other tickets show
    await setSetting(app, t.companyId, "shareContactHistory", "enabled");
    const shared = (await api("GET", `/api/messages/${mine.ticketId}`, t.user.token)).json();
    expect(bodies(shared)).toEqual(["fatura atrasada", "segunda via", "comprovante", "oi de novo", "essa aqui"]);
    expect(shared).toMatchObject({ hidden: [], count: 5 });
    expect(shared.messages.at(-1).quotedMsg).toMatchObject({ id: fin.ids[0], body: "fatura atrasada" });
    const file = await api("GET", `/api/messages/media/${fin.imageId}`, t.user.token);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const notes = (await api("GET", `/api/ticket-notes/list?ticketId=${mine.ticketId}&contactId=${contactId}`, t.user.token)).json();
    expect(notes.map((n: { note: string }) => n.note)).toEqual(["nota do financeiro"]);
    // the ticket itself still may not be opened
    expect((await api("GET", `/api/tickets/${fin.ticketId}`, t.user.token)).statusCode).toBe(403);
    await setSetting(app, t.companyId, "shareContactHistory", "disabled");

    // sharing applies to the conversations the user may open: a contact none of whose tickets the
    // agent may open stays closed to it, media included
    const stranger = await ticketWith(newNumber(), ["só financeiro"], financeiro, { image: true });
    await setSetting(app, t.companyId, "shareContactHistory", "enabled");
    expect((await api("GET", `/api/messages/media/${stranger.imageId}`, t.user.token)).statusCode).toBe(403);
    await setSetting(app, t.companyId, "shareContactHistory", "disabled");
  });

  it("pages over the visible messages only: 20 a page, no holes, no repeats, each hidden run with its page", async () => {
    await setSetting(app, t.companyId, "shareContactHistory", "disabled");
    const number = newNumber();
    const a = await ticketWith(number, ["a1", "a2", "a3"], financeiro);
    const b = await ticketWith(number, Array.from({ length: 22 }, (_, i) => `b${i + 1}`), vendas);
    const c = await ticketWith(number, ["c1", "c2"], financeiro);
    const d = await ticketWith(number, ["d1", "d2", "d3", "d4", "d5"], vendas, { close: false });
    expect(new Set([a.ticketId, b.ticketId, c.ticketId, d.ticketId]).size).toBe(4);

    const p1 = (await api("GET", `/api/messages/${d.ticketId}`, t.user.token)).json();
    expect(bodies(p1)).toEqual([...Array.from({ length: 15 }, (_, i) => `b${i + 8}`), "d1", "d2", "d3", "d4", "d5"]);
    expect(p1).toMatchObject({ hasMore: true, count: 27 });
    expect(p1.hidden).toEqual([{ beforeMessageId: d.ids[0], count: 2, queue: { id: financeiro, name: "Financeiro", color: "#aa0000" } }]);

    const p2 = (await api("GET", `/api/messages/${d.ticketId}?pageNumber=2`, t.user.token)).json();
    expect(bodies(p2)).toEqual(["b1", "b2", "b3", "b4", "b5", "b6", "b7"]);
    expect(p2).toMatchObject({ hasMore: false, count: 27 });
    expect(p2.hidden).toEqual([{ beforeMessageId: b.ids[0], count: 3, queue: { id: financeiro, name: "Financeiro", color: "#aa0000" } }]);

    const p3 = (await api("GET", `/api/messages/${d.ticketId}?pageNumber=3`, t.user.token)).json();
    expect(p3).toMatchObject({ messages: [], hidden: [], hasMore: false });

    // the admin pages over all 32
    const admin1 = (await api("GET", `/api/messages/${d.ticketId}`, t.admin.token)).json();
    expect(admin1).toMatchObject({ count: 32, hasMore: true, hidden: [] });
    expect(bodies(admin1)).toEqual([...Array.from({ length: 13 }, (_, i) => `b${i + 10}`), "c1", "c2", "d1", "d2", "d3", "d4", "d5"]);
  });

  it("hidden messages newer than everything the viewer sees come with the first page, after the last visible one", async () => {
    await setSetting(app, t.companyId, "shareContactHistory", "disabled");
    const number = newNumber();
    const old = await ticketWith(number, ["minha fila"], vendas);
    await app.sql.exec("UPDATE tickets SET user_id = $2 WHERE id = $1", [old.ticketId, t.user.id]);
    const later = await ticketWith(number, ["outra fila 1", "outra fila 2"], financeiro, { close: false });
    const page = (await api("GET", `/api/messages/${old.ticketId}`, t.user.token)).json();
    expect(bodies(page)).toEqual(["minha fila"]);
    expect(page.hidden).toEqual([{ beforeMessageId: null, count: 2, queue: { id: financeiro, name: "Financeiro", color: "#aa0000" } }]);
    expect(later.ids).toHaveLength(2);
  });
});
