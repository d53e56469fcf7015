import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, setSetting } from "../../channels/testing.js";
import { searchTuning } from "./list-tickets.js";
import { expectEvery } from "../../../test/expect-every.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let queueA: number;
let queueB: number;
let wa: number;
let seq = 0;
const newNumber = () => `5511${String(900000000 + ++seq * 7919).slice(0, 9)}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-tickets-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
  queueB = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
  await app.sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, t.user.id, queueA]);
  wa = await connectedSandbox(app, t.admin.token, { queueIds: [queueA] });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });

/** A pending ticket in queue A (the connection's only queue) from a new customer. */
async function pendingTicket(name = "Maria Souza"): Promise<number> {
  const r = await inbound(app, t.admin.token, wa, { number: newNumber(), name, body: "Olá, preciso de ajuda" });
  return r.ticketId;
}

async function ticketOf(id: number) {
  const res = await api("GET", `/api/tickets/${id}`, t.admin.token);
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function put(id: number, token: string, body: unknown) {
  return api("PUT", `/api/tickets/${id}`, token, body);
}

describe("tickets: access", () => {
  it("refuses every route without a session", async () => {
    for (const [m, u] of [
      ["GET", "/api/tickets"],
      ["GET", "/api/tickets/1"],
      ["GET", "/api/tickets/sync"],
      ["POST", "/api/tickets"],
      ["PUT", "/api/tickets/1"],
      ["DELETE", "/api/tickets/1"],
      ["POST", "/api/tickets/1/read"],
    ] as const) {
      const res = await api(m, u, undefined, m === "GET" ? undefined : {});
      expect(res.statusCode, `${m} ${u}`).toBe(401);
    }
  });

  it("another company's ticket is not found on every route", async () => {
    const id = await pendingTicket();
    const uuid = (await ticketOf(id)).uuid;
    const tok = other.admin.token;
    expect((await api("GET", `/api/tickets/${id}`, tok)).statusCode).toBe(404);
    expect((await api("GET", `/api/tickets/${uuid}`, tok)).statusCode).toBe(404);
    expect((await put(id, tok, { status: "open" })).json().error).toBe("ERR_NO_TICKET_FOUND");
    expect((await api("DELETE", `/api/tickets/${id}`, tok)).statusCode).toBe(404);
    expect((await api("POST", `/api/tickets/${id}/read`, tok)).statusCode).toBe(404);
    expect((await api("GET", `/api/messages/${id}`, tok)).statusCode).toBe(404);
    expect((await api("POST", `/api/messages/${id}`, tok, { body: "x" })).statusCode).toBe(404);
    const list = await api("GET", "/api/tickets?showAll=true", tok);
    expect(list.json().tickets.map((x: { id: number }) => x.id)).not.toContain(id);
    const sync = await api("GET", "/api/tickets/sync", tok);
    expect(sync.json().tickets.map((x: { id: number }) => x.id)).not.toContain(id);
  });

  it("reads a ticket by id and by uuid", async () => {
    const id = await pendingTicket();
    const byId = await ticketOf(id);
    expect(byId).toMatchObject({ id, status: "pending", queueId: queueA, unreadMessages: 1, originFromMe: false, lastMessage: "Olá, preciso de ajuda" });
    expect(byId.contact.name).toBe("Maria Souza");
    const byUuid = await api("GET", `/api/tickets/${byId.uuid}`, t.user.token);
    expect(byUuid.json().id).toBe(id);
    expect(JSON.stringify(byId)).not.toMatch(/token|password/i);
  });
});

describe("tickets: visibility", () => {
  it("a user sees tickets of their queues, their own, and (allTicket) pending ones without a queue", async () => {
    const inA = await pendingTicket();
    const waB = await connectedSandbox(app, t.admin.token, { name: "Conexão B", queueIds: [queueB] });
    const inB = (await inbound(app, t.admin.token, waB, { number: newNumber() })).ticketId;
    const waNone = await connectedSandbox(app, t.admin.token, { name: "None" });
    const noQueue = (await inbound(app, t.admin.token, waNone, { number: newNumber() })).ticketId;

    const ids = async (token: string, q = "") =>
      (await api("GET", `/api/tickets?status=pending${q}`, token)).json().tickets.map((x: { id: number }) => x.id) as number[];

    const userView = await ids(t.user.token, "&showAll=true");
    expect(userView).toContain(inA);
    expect(userView).not.toContain(inB);
    expect(userView).not.toContain(noQueue);
    expect((await api("GET", `/api/tickets/${inB}`, t.user.token)).json().error).toBe("ERR_NO_PERMISSION");

    const allTicketUser = await buildUser(app.sql, t.companyId, { allTicket: "enable", queueIds: [queueA] });
    const tokAll = await app.login(allTicketUser.email);
    expect(await ids(tokAll)).toEqual(expect.arrayContaining([inA, noQueue]));
    expect(await ids(tokAll)).not.toContain(inB);

    expect(await ids(t.supervisor.token)).not.toContain(inA);
    expect(await ids(t.supervisor.token, "&showAll=true")).toEqual(expect.arrayContaining([inA, inB, noQueue]));
    expect(await ids(t.admin.token, "&showAll=true")).toEqual(expect.arrayContaining([inA, inB, noQueue]));

    // assigning B's ticket to the user makes it theirs
    await put(inB, t.admin.token, { action: "accept", userId: t.user.id });
    expect((await api("GET", "/api/tickets?status=open", t.user.token)).json().tickets.map((x: { id: number }) => x.id)).toContain(inB);
  });

  it("queueIds narrows the list and keeps tickets without a queue", async () => {
    // A company of its own, so the list holds exactly the tickets made here.
    const c = await buildTenant(app);
    const sales = await buildQueue(app.sql, c.companyId, { name: "Vendas" });
    const support = await buildQueue(app.sql, c.companyId, { name: "Suporte" });
    const billing = await buildQueue(app.sql, c.companyId, { name: "Financeiro" });
    const ticketVia = async (queueIds: number[], name: string) =>
      (await inbound(app, c.admin.token, await connectedSandbox(app, c.admin.token, { name, queueIds }), { number: newNumber() })).ticketId;
    const inSales = await ticketVia([sales], "Vendas");
    const inSupport = await ticketVia([support], "Suporte");
    const inBilling = await ticketVia([billing], "Financeiro");
    const noQueue = await ticketVia([], "Sem fila");
    const ids = async (queueIds: number[], extra = "") => {
      const res = await api("GET", `/api/tickets?showAll=true&status=pending&queueIds=${encodeURIComponent(JSON.stringify(queueIds))}${extra}`, c.admin.token);
      expect(res.statusCode).toBe(200);
      return (res.json().tickets as { id: number }[]).map((x) => x.id).sort((x, y) => x - y);
    };

    expect(await ids([support])).toEqual([inSupport, noQueue].sort((x, y) => x - y));
    expect(await ids([sales, billing])).toEqual([inSales, inBilling, noQueue].sort((x, y) => x - y));
    expect(await ids([support], "&includeNoQueue=false")).toEqual([inSupport]);
  });

  it("restrictSystemQueuesVisibility hides system-queue tickets from non-members of the transfer queue", async () => {
    const bot = await buildQueue(app.sql, t.companyId, { name: "BOT" });
    const waBot = await connectedSandbox(app, t.admin.token, { name: "Bot", queueIds: [bot] });
    const id = (await inbound(app, t.admin.token, waBot, { number: newNumber() })).ticketId;
    await app.sql.exec("UPDATE tickets SET transfer_queue_id = $1 WHERE id = $2", [queueB, id]);
    const member = await buildUser(app.sql, t.companyId, { queueIds: [bot] });
    const tok = await app.login(member.email);
    expect((await api("GET", `/api/tickets/${id}`, tok)).statusCode).toBe(200);
    await setSetting(app, t.companyId, "restrictSystemQueuesVisibility", "enabled");
    try {
      expect((await api("GET", `/api/tickets/${id}`, tok)).json().error).toBe("ERR_NO_PERMISSION");
      const list = await api("GET", "/api/tickets?status=pending", tok);
      expect(list.json().tickets.map((x: { id: number }) => x.id)).not.toContain(id);
      expect((await api("GET", `/api/tickets/${id}`, t.admin.token)).statusCode).toBe(200);
      // accept is hidden on BOT-queue tickets for non-admins
      await app.sql.exec("UPDATE tickets SET transfer_queue_id = NULL WHERE id = $1", [id]);
      expect((await put(id, tok, { action: "accept" })).json().error).toBe("ERR_NO_PERMISSION");
    } finally {
      await setSetting(app, t.companyId, "restrictSystemQueuesVisibility", "disabled");
    }
  });
});

describe("tickets: transitions", () => {
  it("accept: pending → open for the current user, with the greeting when enabled", async () => {
    await setSetting(app, t.companyId, "sendGreetingAccepted", "enabled");
    const id = await pendingTicket("Carla Dias");
    const res = await put(id, t.user.token, { status: "open", userId: t.user.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "open", userId: t.user.id, user: { name: "Agent" } });
    const outbox = (await api("GET", `/api/sandbox/${wa}/outbox?outboundOnly=true`, t.admin.token)).json().records as { body: string }[];
    expect(outbox.at(-1)!.body).toMatch(/Carla Dias.*meu nome é \*Agent\*/);
    await setSetting(app, t.companyId, "sendGreetingAccepted", "disabled");
    // accepting an open ticket is refused: a 409 with the ticket as it is now
    expect((await put(id, t.supervisor.token, { action: "accept" })).json().error).toBe("ERR_TICKET_ALREADY_CHANGED");
  });

  it("return: owner or admin only; clears the user", async () => {
    const id = await pendingTicket();
    await put(id, t.admin.token, { action: "accept" });
    expect((await put(id, t.user.token, { status: "pending", userId: null })).json().error).toBe("ERR_NO_PERMISSION");
    const res = await put(id, t.admin.token, { status: "pending", userId: null });
    expect(res.json()).toMatchObject({ status: "pending", userId: null });
  });

  it("pause → returns the next open ticket; resume by owner or admin", async () => {
    const first = await pendingTicket();
    const second = await pendingTicket();
    await put(first, t.user.token, { action: "accept" });
    await put(second, t.user.token, { action: "accept" });
    const paused = await put(second, t.user.token, { status: "paused" });
    expect(paused.json()).toMatchObject({ status: "paused", nextTicket: { id: first } });
    expect((await put(second, t.supervisor.token, { status: "open" })).json().error).toBe("ERR_NO_PERMISSION");
    expect((await put(second, t.user.token, { status: "open" })).json().status).toBe("open");
    expect((await put(first, t.supervisor.token, { status: "paused" })).json().error).toBe("ERR_NO_PERMISSION");
  });

  it("finish: requires a tag when the setting is on; keeps the queue; clears prompt and integration", async () => {
    const id = await pendingTicket();
    await put(id, t.user.token, { action: "accept" });
    await put(id, t.user.token, { promptId: 7, integrationId: 9, useIntegration: true });
    expect(await ticketOf(id)).toMatchObject({ promptId: 7, integrationId: 9, useIntegration: true });
    // someone else's open ticket: no finish
    expect((await put(id, t.supervisor.token, { status: "closed" })).json().error).toBe("ERR_NO_PERMISSION");
    await setSetting(app, t.companyId, "requireTagBeforeClosing", "enabled");
    try {
      const refused = await put(id, t.user.token, { status: "closed" });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe("ERR_REQUIRE_TAG_BEFORE_CLOSING");
      const tag = (await api("POST", "/api/tags", t.admin.token, { name: "Cliente VIP", color: "#ff0000" })).json();
      expect((await api("POST", "/api/tags/sync", t.user.token, { ticketId: id, tags: [{ id: tag.id }] })).statusCode).toBe(200);
      const closed = await put(id, t.user.token, { status: "closed" });
      expect(closed.json()).toMatchObject({ status: "closed", queueId: queueA, promptId: null, integrationId: null, useIntegration: false });
      expect(closed.json().tags.map((x: { name: string }) => x.name)).toEqual(["Cliente VIP"]);
      // tag changes on a closed ticket: admins only
      expect((await api("POST", "/api/tags/sync", t.user.token, { ticketId: id, tags: [] })).json().error).toBe("ERR_NO_PERMISSION");
    } finally {
      await setSetting(app, t.companyId, "requireTagBeforeClosing", "disabled");
    }
  });

  it("finish: anyone who sees a pending ticket may close it; the completion message is sent", async () => {
    await app.api("PUT", `/api/whatsapp/${wa}`, { token: t.admin.token, body: { complationMessage: "Obrigado, {{firstName}}!" } });
    const id = await pendingTicket("Pedro Alves");
    const res = await put(id, t.user.token, { action: "finish" });
    expect(res.json().status).toBe("closed");
    const outbox = (await api("GET", `/api/sandbox/${wa}/outbox?outboundOnly=true`, t.admin.token)).json().records as { body: string }[];
    expect(outbox.at(-1)!.body).toBe("Obrigado, Pedro!");
    await app.api("PUT", `/api/whatsapp/${wa}`, { token: t.admin.token, body: { complationMessage: "" } });
  });

  it("reopen: closed → open for the current user with the same queue; refused while another is open", async () => {
    const number = newNumber();
    const id = (await inbound(app, t.admin.token, wa, { number })).ticketId;
    await put(id, t.user.token, { action: "finish" });
    const reopened = await put(id, t.user.token, { status: "open" });
    expect(reopened.json()).toMatchObject({ status: "open", userId: t.user.id, queueId: queueA });
    await put(id, t.user.token, { action: "finish" });
    const newer = (await inbound(app, t.admin.token, wa, { number, body: "de novo" })).ticketId;
    expect(newer).not.toBe(id);
    const conflict = await put(id, t.user.token, { status: "open" });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ error: "ERR_OTHER_OPEN_TICKET", ticket: { id: newer } });
  });

  it("transfer: queue required; without a user → pending, with a user → open for them", async () => {
    const id = await pendingTicket();
    await put(id, t.user.token, { action: "accept" });
    const missing = await put(id, t.user.token, { action: "transfer", userId: t.supervisor.id });
    expect(missing.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { queueId: "Required" } });
    const toQueue = await put(id, t.user.token, { queueId: queueB, userId: null, status: "pending" });
    expect(toQueue.json()).toMatchObject({ status: "pending", queueId: queueB, userId: null });
    // the user lost sight of it (queue B is not theirs)
    expect((await api("GET", `/api/tickets/${id}`, t.user.token)).json().error).toBe("ERR_NO_PERMISSION");
    const toUser = await put(id, t.admin.token, { action: "transfer", queueId: queueA, userId: t.user.id });
    expect(toUser.json()).toMatchObject({ status: "open", queueId: queueA, userId: t.user.id });
    // another user's open ticket cannot be transferred by a non-admin
    expect((await put(id, t.supervisor.token, { action: "transfer", queueId: queueB })).json().error).toBe("ERR_NO_PERMISSION");
    expect((await put(id, t.admin.token, { action: "transfer", queueId: 999999 })).statusCode).toBe(400);
  });

  it("refuses transitions from the wrong status", async () => {
    const id = await pendingTicket();
    expect((await put(id, t.admin.token, { action: "pause" })).json().error).toBe("ERR_TICKET_ALREADY_CHANGED");
    expect((await put(id, t.admin.token, { action: "resume" })).json().error).toBe("ERR_TICKET_ALREADY_CHANGED");
    expect((await put(id, t.admin.token, { action: "reopen" })).json().error).toBe("ERR_TICKET_ALREADY_CHANGED");
    expect((await put(id, t.admin.token, { status: "bogus" })).statusCode).toBe(400);
  });

  it("delete: admins only", async () => {
    const id = await pendingTicket();
    expect((await api("DELETE", `/api/tickets/${id}`, t.supervisor.token)).json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("DELETE", `/api/tickets/${id}`, t.user.token)).statusCode).toBe(403);
    expect((await api("DELETE", `/api/tickets/${id}`, t.admin.token)).statusCode).toBe(200);
    expect((await api("GET", `/api/tickets/${id}`, t.admin.token)).statusCode).toBe(404);
  });

  it("read: unread back to 0", async () => {
    const id = await pendingTicket();
    expect((await ticketOf(id)).unreadMessages).toBe(1);
    const res = await api("POST", `/api/tickets/${id}/read`, t.user.token);
    expect(res.json().unreadMessages).toBe(0);
  });
});

describe("tickets: create", () => {
  it("a refused creation draws no ticket number: the next ticket follows the last one without a gap", async () => {
    const c1 = (await api("POST", "/api/contacts", t.admin.token, { name: "Cliente Sequência", number: newNumber() })).json();
    const c2 = (await api("POST", "/api/contacts", t.admin.token, { name: "Cliente Seguinte", number: newNumber() })).json();
    const first = await api("POST", "/api/tickets", t.admin.token, { contactId: c1.id, whatsappId: wa });
    expect(first.statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      const refused = await api("POST", "/api/tickets", t.admin.token, { contactId: c1.id, whatsappId: wa });
      expect(refused.json()).toMatchObject({ error: "ERR_OTHER_OPEN_TICKET" });
    }
    const next = await api("POST", "/api/tickets", t.admin.token, { contactId: c2.id, whatsappId: wa });
    expect(next.statusCode).toBe(200);
    expect(next.json().id).toBe(first.json().id + 1);
  });

  it("JSON with a contact: open, proactive, assigned to the user; a second one is refused with the first", async () => {
    const contact = (await api("POST", "/api/contacts", t.admin.token, { name: "Novo Cliente", number: `+55 (11) ${newNumber().slice(4)}` })).json();
    const res = await api("POST", "/api/tickets", t.user.token, { contactId: contact.id, whatsappId: wa, userId: t.user.id, status: "open" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "open", originFromMe: true, userId: t.user.id, contactId: contact.id, whatsappId: wa, queueId: queueA });
    const again = await api("POST", "/api/tickets", t.admin.token, { contactId: contact.id, whatsappId: wa });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: "ERR_OTHER_OPEN_TICKET", ticket: { id: res.json().id } });
    // a plain user cannot open a ticket for someone else
    const c2 = (await api("POST", "/api/contacts", t.admin.token, { name: "Outro", number: newNumber() })).json();
    expect((await api("POST", "/api/tickets", t.user.token, { contactId: c2.id, whatsappId: wa, userId: t.admin.id })).statusCode).toBe(403);
    // another company's contact or connection
    expect((await api("POST", "/api/tickets", other.admin.token, { contactId: c2.id })).statusCode).toBe(404);
  });

  it("multipart with a number, a message and a file: contact created, message sent", async () => {
    const number = newNumber();
    const form = new FormData();
    form.append("number", number);
    form.append("whatsappId", String(wa));
    form.append("userId", String(t.user.id));
    form.append("message", "Olá {{firstName}}, tudo bem?");
    form.append("file", new Blob([Buffer.from("%PDF-1.4 fake")], { type: "application/pdf" }), "proposta.pdf");
    const req = new Request("http://x", { method: "POST", body: form });
    const res = await app.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: { authorization: `Bearer ${t.user.token}`, "content-type": req.headers.get("content-type")! },
      payload: Buffer.from(await req.arrayBuffer()),
    });
    expect(res.statusCode).toBe(200);
    const ticket = res.json();
    expect(ticket).toMatchObject({ status: "open", originFromMe: true, contact: { number } });
    const msgs = (await api("GET", `/api/messages/${ticket.id}`, t.user.token)).json().messages;
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ fromMe: true, mediaType: "application", mediaName: "proposta.pdf", userId: t.user.id });
    expect(msgs[0].body).toBe(`*Agent*:\nOlá ${number}, tudo bem?`);
  });

  it("validates the phone and the connection", async () => {
    const bad = await api("POST", "/api/tickets", t.user.token, { number: "123", whatsappId: wa });
    expect(bad.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { number: "Digite um número de telefone válido" } });
    const waOther = await connectedSandbox(app, other.admin.token);
    expect((await api("POST", "/api/tickets", t.user.token, { number: newNumber(), whatsappId: waOther })).json().error).toBe("ERR_NO_WAPP_FOUND");
  });
});

describe("tickets: list, search and sync", () => {
  it("pages 40 at a time with hasMore and filters by unread, origin and tags", async () => {
    for (let i = 0; i < 41; i++) await inbound(app, t.admin.token, wa, { number: newNumber(), body: `pedido ${i}` });
    const p1 = (await api("GET", "/api/tickets?showAll=true&status=pending", t.admin.token)).json();
    expect(p1.tickets).toHaveLength(40);
    expect(p1.hasMore).toBe(true);
    expect(p1.count).toBeGreaterThan(40);
    const p2 = (await api("GET", "/api/tickets?showAll=true&status=pending&pageNumber=2", t.admin.token)).json();
    expect(p2.tickets.map((x: { id: number }) => x.id)).not.toContain(p1.tickets[0].id);
    const unread = (await api("GET", "/api/tickets?showAll=true&withUnreadMessages=true", t.admin.token)).json().tickets;
    expectEvery(unread, (x: { unreadMessages: number }) => x.unreadMessages > 0);
    const proactive = (await api("GET", `/api/tickets?showAll=true&origins=${encodeURIComponent('["proactive"]')}`, t.admin.token)).json().tickets;
    expect(proactive.length).toBeGreaterThan(0);
    expectEvery(proactive, (x: { originFromMe: boolean }) => x.originFromMe);
    const tag = (await api("POST", "/api/tags", t.admin.token, { name: "Filtro" })).json();
    await api("POST", "/api/tags/sync", t.admin.token, { ticketId: p1.tickets[3].id, tags: [{ id: tag.id }] });
    const tagged = (await api("GET", `/api/tickets?showAll=true&tags=${encodeURIComponent(JSON.stringify([tag.id]))}`, t.admin.token)).json().tickets;
    expect(tagged.map((x: { id: number }) => x.id)).toEqual([p1.tickets[3].id]);
  });

  it("searches message text, contact name and number; a ticket with several matches counts once", async () => {
    const number = newNumber();
    const target = (await inbound(app, t.admin.token, wa, { number, name: "Zuleica Prado", body: "meu abacaxi chegou" })).ticketId;
    await inbound(app, t.admin.token, wa, { number, body: "outro abacaxi" });
    await inbound(app, t.admin.token, wa, { number, body: "mais abacaxi" });
    const byWord = (await api("GET", "/api/tickets?showAll=true&searchParam=ABACAXI", t.admin.token)).json().tickets;
    expect(byWord.map((x: { id: number }) => x.id)).toEqual([target]);
    const byName = (await api("GET", "/api/tickets?showAll=true&searchParam=zuleica", t.admin.token)).json().tickets;
    expect(byName.map((x: { id: number }) => x.id)).toEqual([target]);
    const byNumber = (await api("GET", `/api/tickets?showAll=true&searchParam=${number.slice(-6)}`, t.admin.token)).json().tickets;
    expect(byNumber.map((x: { id: number }) => x.id)).toContain(target);
    // the user does not see other queues' tickets in a search either
    const waB = await connectedSandbox(app, t.admin.token, { name: "B2", queueIds: [queueB] });
    await inbound(app, t.admin.token, waB, { number: newNumber(), body: "abacaxi secreto" });
    const userSearch = (await api("GET", "/api/tickets?searchParam=abacaxi", t.user.token)).json().tickets;
    expect(userSearch.map((x: { id: number }) => x.id)).toEqual([target]);
  });

  it("search gives the same full pages through the walk plan and the collect-and-sort plan", async () => {
    for (let i = 0; i < 45; i++) {
      await inbound(app, t.admin.token, wa, { number: newNumber(), body: i % 3 === 0 ? `kiwi ${i}` : i % 2 === 0 ? `banana madura ${i}` : `banana ${i}` });
    }
    const pages = async (q = "banana") => {
      const out: number[][] = [];
      for (let page = 1; page <= 3; page++) {
        const res = (await api("GET", `/api/tickets?showAll=true&searchParam=${encodeURIComponent(q)}&pageNumber=${page}`, t.admin.token)).json();
        if (res.hasMore) expect(res.tickets).toHaveLength(40);
        out.push(res.tickets.map((x: { id: number }) => x.id));
      }
      return out;
    };
    const saved = { ...searchTuning };
    let walked: number[][];
    let walkedPair: number[][];
    try {
      Object.assign(searchTuning, { walkAbove: -1 }); // newest tickets walked
      walked = await pages();
      walkedPair = await pages("banana madu");
      Object.assign(searchTuning, { walkAbove: Number.MAX_SAFE_INTEGER }); // every match collected, then sorted
      expect(await pages()).toEqual(walked);
      expect(await pages("banana madu")).toEqual(walkedPair);
    } finally {
      Object.assign(searchTuning, saved);
    }
    expect(walked.flat()).toHaveLength(30);
    expect(new Set(walked.flat()).size).toBe(30);
    expect(walkedPair.flat()).toHaveLength(15); // both words required: the even ones of the 30
    expectEvery(walkedPair.flat(), (id) => walked.flat().includes(id));
  });

  it("search finds words by their start, without accents, all words required, in messages, edited text and the contact's name", async () => {
    const number = newNumber();
    const target = (await inbound(app, t.admin.token, wa, { number, name: "Otília", body: "Não recebi a confirmação do pedido" })).ticketId;
    const ids = async (q: string) =>
      (await api("GET", `/api/tickets?showAll=true&searchParam=${encodeURIComponent(q)}`, t.admin.token)).json().tickets.map((x: { id: number }) => x.id);
    expect(await ids("confirmacao")).toEqual([target]);
    expect(await ids("CONFIRM")).toEqual([target]);
    expect(await ids("nao pedid")).toEqual([target]);
    expect(await ids("pedido inexistente")).toEqual([]);
    expect(await ids("otilia")).toEqual([target]); // the contact's name, accents ignored
    expect(await ids("OTÍL")).toEqual([target]);
    expect(await ids("tilia")).toEqual([]); // words are found by their start
    expect(await ids(number.slice(4, 10))).toContain(target); // digits anywhere in the number
    await app.sql.exec("UPDATE messages SET body = 'pedido 4512 cancelado' WHERE ticket_id = $1", [target]);
    expect(await ids("cancelad")).toEqual([target]);
    expect(await ids("otilia cancelado")).toEqual([target]); // one word in the name, one in a message
    await api("PUT", `/api/contacts/${(await app.sql.one<{ contact_id: number }>("SELECT contact_id FROM tickets WHERE id = $1", [target])).contact_id}`, t.admin.token, {
      name: "Otília Brandão",
    });
    expect(await ids("brandao")).toEqual([target]);
  });

  it("sync returns visible tickets updated since a time, with their last messages", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const id = (await inbound(app, t.admin.token, wa, { number: newNumber(), body: "sincronizar" })).ticketId;
    const res = await api("GET", `/api/tickets/sync?since=${encodeURIComponent(since)}`, t.user.token);
    expect(res.statusCode).toBe(200);
    const found = res.json().tickets.find((x: { id: number }) => x.id === id);
    expect(found.messages.map((m: { body: string }) => m.body)).toEqual(["sincronizar"]);
    const closed = await api("GET", "/api/tickets/sync?status=closed&limit=1", t.admin.token);
    expectEvery(closed.json().tickets, (x: { status: string }) => x.status === "closed");
  });
});
