import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../test/helper.js";
import * as ticketRepo from "../domains/tickets/repository.js";
import { connectedSandbox, inbound, phoneOutbox } from "./testing.js";
import { socketsCaughtUp } from "../../test/socket-fence.js";
import { waitFor as waitUntil } from "../../test/wait.js";

let app: TestApp;
let dataDir: string;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let queueA: number;
let queueB: number;
let wa: number;
let seq = 0;
const newNumber = () => `5531${String(900000000 + ++seq * 7919).slice(0, 9)}`;
const sockets: Socket[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-inbound-"));
  app = await createTestApp({ dataDir });
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
  queueB = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
  wa = await connectedSandbox(app, t.admin.token, { queueIds: [queueA] });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });

async function socketFor(token: string): Promise<{ socket: Socket; events: { channel: string; payload: Record<string, unknown> }[] }> {
  const socket = connect(base, { auth: { token }, transports: ["websocket"] });
  sockets.push(socket);
  const events: { channel: string; payload: Record<string, unknown> }[] = [];
  socket.onAny((channel: string, payload: Record<string, unknown>) => events.push({ channel, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return { socket, events };
}

const waitFor = (check: () => boolean, ms = 8000) => waitUntil(check, ms, "condition", 50);

describe("inbound pipeline", () => {
  it("20 concurrent messages from a new number: exactly 1 contact, 1 ticket, 20 messages in arrival order", async () => {
    const number = newNumber();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => inbound(app, t.admin.token, wa, { number, name: "Rajada", body: `m${i}` })),
    );
    expect(new Set(results.map((r) => r.ticketId)).size).toBe(1);
    const c = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM contacts WHERE company_id = $1 AND number = $2", [t.companyId, number]);
    expect(c.n).toBe(1);
    const tk = await app.sql.many<{ id: number; unread_messages: number }>(
      "SELECT t.id, t.unread_messages FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE c.number = $1",
      [number],
    );
    expect(tk).toHaveLength(1);
    expect(tk[0]!.unread_messages).toBe(20);
    // stored in the order they reached the connection (the phone's order)
    const bodies = await app.sql.many<{ body: string }>("SELECT body FROM messages WHERE ticket_id = $1 ORDER BY id", [tk[0]!.id]);
    const arrived = await app.sql.many<{ body: string }>(
      "SELECT body FROM sandbox_messages WHERE whatsapp_id = $1 AND number = $2 AND direction = 'inbound' ORDER BY id",
      [wa, number],
    );
    expect(bodies.map((b) => b.body)).toEqual(arrived.map((b) => b.body));
    expect(new Set(bodies.map((b) => b.body)).size).toBe(20);
  });

  it("the pipeline alone (20 concurrent calls) keeps call order and creates one contact and one ticket", async () => {
    const { processInbound } = await import("./inbound.js");
    const number = newNumber();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        processInbound(app.ctx, { companyId: t.companyId, whatsappId: wa }, { providerId: `P-${number}-${i}`, from: number, pushName: "Direto", body: `d${i}`, mediaType: "chat" }),
      ),
    );
    expect(new Set(results.map((r) => r.ticketId)).size).toBe(1);
    expect(new Set(results.map((r) => r.contactId)).size).toBe(1);
    const bodies = await app.sql.many<{ body: string }>("SELECT body FROM messages WHERE ticket_id = $1 ORDER BY id", [results[0]!.ticketId]);
    expect(bodies.map((b) => b.body)).toEqual(Array.from({ length: 20 }, (_, i) => `d${i}`));
  });

  it("the database itself allows one active ticket per contact and connection under concurrency", async () => {
    const contact = await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'X', $2) RETURNING id", [
      t.companyId,
      newNumber(),
    ]);
    const ids = await Promise.all(
      Array.from({ length: 10 }, () =>
        ticketRepo.insertTicketIfNone(app.sql, {
          companyId: t.companyId,
          contactId: contact.id,
          whatsappId: wa,
          status: "pending",
          userId: null,
          queueId: null,
          isGroup: false,
          originFromMe: false,
        }),
      ),
    );
    expect(ids.filter((x) => x !== null)).toHaveLength(1);
    await expect(
      app.sql.exec("INSERT INTO tickets (company_id, contact_id, whatsapp_id, status) VALUES ($1, $2, $3, 'open')", [t.companyId, contact.id, wa]),
    ).rejects.toThrow(/tickets_one_active/);
  });

  it("a contact whose tickets are all closed gets a new pending ticket; a repeated provider id is stored once", async () => {
    const number = newNumber();
    const first = await inbound(app, t.admin.token, wa, { number });
    await api("PUT", `/api/tickets/${first.ticketId}`, t.admin.token, { action: "finish" });
    const second = await inbound(app, t.admin.token, wa, { number, body: "voltei" });
    expect(second.ticketId).not.toBe(first.ticketId);
    expect(second.contactId).toBe(first.contactId);
    expect((await api("GET", `/api/tickets/${second.ticketId}`, t.admin.token)).json()).toMatchObject({ status: "pending", unreadMessages: 1 });
    const { processInbound } = await import("./inbound.js");
    const msg = { providerId: "DUP-1", from: number, pushName: "X", body: "dup", mediaType: "chat" as const };
    const a = await processInbound(app.ctx, { companyId: t.companyId, whatsappId: wa }, msg);
    const b = await processInbound(app.ctx, { companyId: t.companyId, whatsappId: wa }, msg);
    expect(a.duplicate).toBe(false);
    expect(b).toMatchObject({ duplicate: true, messageId: a.messageId });
  });

  it("stores inbound media and quotes", async () => {
    const number = newNumber();
    const first = await inbound(app, t.admin.token, wa, { number, body: "pergunta" });
    const img = await inbound(app, t.admin.token, wa, {
      number,
      body: "",
      mediaType: "image",
      mimetype: "image/jpeg",
      mediaName: "foto.jpg",
      mediaBase64: Buffer.from("jpegdata").toString("base64"),
      quotedId: first.messageId,
    });
    const msgs = (await api("GET", `/api/messages/${img.ticketId}`, t.admin.token)).json().messages;
    const m = msgs.find((x: { id: number }) => x.id === img.messageId);
    expect(m).toMatchObject({ mediaType: "image", mimetype: "image/jpeg", quotedMsgId: first.messageId, fromMe: false });
    const file = await api("GET", m.mediaUrl.replace(/^/, "/api"), t.admin.token);
    expect(file.body).toBe("jpegdata");
    expect((await api("GET", `/api/tickets/${img.ticketId}`, t.admin.token)).json().lastMessage).toBe("📷 Imagem");
  });

  it("several queues: greeting with a numbered menu, the reply picks the queue", async () => {
    const multi = await connectedSandbox(app, t.admin.token, { name: "Multi", queueIds: [queueA, queueB], greetingMessage: "{{ms}}! Escolha:" });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, multi, { number, body: "oi" });
    let ticket = (await api("GET", `/api/tickets/${ticketId}`, t.admin.token)).json();
    expect(ticket).toMatchObject({ queueId: null, chatbot: true });
    const menu = (await api("GET", `/api/sandbox/${multi}/outbox?number=${number}&outboundOnly=true`, t.admin.token)).json().records;
    expect(menu.at(-1).body).toMatch(/Escolha:\n\n\*1\* - Vendas\n\*2\* - Suporte$/);
    await inbound(app, t.admin.token, multi, { number, body: "2" });
    ticket = (await api("GET", `/api/tickets/${ticketId}`, t.admin.token)).json();
    expect(ticket).toMatchObject({ queueId: queueB, chatbot: false });
  });

  it("refuses another company's connection and a disconnected one", async () => {
    const res = await api("POST", `/api/sandbox/${wa}/inbound`, other.admin.token, { number: newNumber(), body: "x" });
    expect(res.json().error).toBe("ERR_NO_WAPP_FOUND");
    expect((await api("GET", `/api/sandbox/${wa}/outbox`, other.admin.token)).statusCode).toBe(404);
    expect((await api("POST", `/api/sandbox/${wa}/scan`, other.admin.token)).statusCode).toBe(404);
    expect((await api("POST", `/api/sandbox/${wa}/read`, other.admin.token, {})).statusCode).toBe(404);
    expect((await api("POST", `/api/sandbox/${wa}/inbound`, undefined, { number: newNumber() })).statusCode).toBe(401);
    const off = await connectedSandbox(app, t.admin.token, { name: "Desligada" });
    await api("DELETE", `/api/whatsappsession/${off}`, t.admin.token);
    expect((await api("POST", `/api/sandbox/${off}/inbound`, t.admin.token, { number: newNumber(), body: "x" })).json().error).toBe(
      "ERR_WAPP_NOT_INITIALIZED",
    );
  });
});

describe("real-time delivery", () => {
  it("ticket and message events reach only users allowed to see the ticket", async () => {
    const member = await buildUser(app.sql, t.companyId, { queueIds: [queueA], name: "Membro" });
    const outsider = await buildUser(app.sql, t.companyId, { queueIds: [queueB], name: "Fora" });
    const m = await socketFor(await app.login(member.email));
    const o = await socketFor(await app.login(outsider.email));
    const a = await socketFor(t.admin.token);
    const x = await socketFor(other.admin.token);
    const { ticketId } = await inbound(app, t.admin.token, wa, { number: newNumber(), body: "evento" });
    const ticketChannel = `company-${t.companyId}-ticket`;
    const msgChannel = `company-${t.companyId}-appMessage`;
    await waitFor(() => m.events.some((e) => e.channel === msgChannel) && a.events.some((e) => e.channel === msgChannel));
    const created = m.events.find((e) => e.channel === msgChannel)!.payload as { action: string; message: { body: string }; ticket: { id: number; unreadMessages: number } };
    expect(created).toMatchObject({ action: "create", message: { body: "evento" }, ticket: { id: ticketId, unreadMessages: 1 } });
    // the new ticket arrives with its first message: no separate ticket update for it
    expect(m.events.some((e) => e.channel === ticketChannel && (e.payload.ticket as { id: number }).id === ticketId)).toBe(false);

    await api("POST", `/api/tickets/${ticketId}/read`, t.admin.token);
    await waitFor(() => m.events.some((e) => e.channel === ticketChannel && e.payload.action === "updateUnread"));

    await socketsCaughtUp(app, [o.socket, x.socket]);
    expect(o.events.filter((e) => e.channel === msgChannel || e.channel === ticketChannel)).toEqual([]);
    // another company's admin hears nothing of this company (its own presence event is its company's)
    expect(x.events.filter((e) => e.channel.startsWith(`company-${t.companyId}-`))).toEqual([]);

    await api("DELETE", `/api/tickets/${ticketId}`, t.admin.token);
    await waitFor(() => m.events.some((e) => e.channel === ticketChannel && e.payload.action === "delete"));
    expect(m.events.find((e) => e.payload.action === "delete")!.payload).toEqual({ action: "delete", ticketId });
  });

  it("outbox acks move sent → delivered, then read when the phone opens the chat, each with an appMessage update", async () => {
    const member = await buildUser(app.sql, t.companyId, { queueIds: [queueA] });
    const token = await app.login(member.email);
    const s = await socketFor(token);
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number });
    await api("PUT", `/api/tickets/${ticketId}`, token, { action: "accept" });
    const sent = (await api("POST", `/api/messages/${ticketId}`, token, { body: "resposta" })).json().messages[0];
    expect(sent.ack).toBe(1);
    const outbox = async () =>
      (await api("GET", `/api/sandbox/${wa}/outbox?number=${number}`, t.admin.token)).json().records as { body: string; ack: number; direction: string }[];
    const acks = () =>
      s.events
        .filter((e) => e.channel === `company-${t.companyId}-appMessage` && e.payload.action === "update")
        .map((e) => (e.payload.message as { id: number; ack: number }))
        .filter((mm) => mm.id === sent.id)
        .map((mm) => mm.ack);
    await waitFor(() => acks().includes(3), 15000);
    expect(acks()).toEqual([2, 3]);
    expect((await outbox()).find((r) => r.direction === "outbound")!.ack).toBe(3);
    const read = await api("POST", `/api/sandbox/${wa}/read`, t.admin.token, { number });
    expect(read.json().updated).toBe(1);
    await waitFor(() => acks().includes(4));
    const msgs = (await api("GET", `/api/messages/${ticketId}`, token)).json().messages;
    expect(msgs.find((mm: { id: number }) => mm.id === sent.id).ack).toBe(4);
    expect((await api("GET", `/api/tickets/${ticketId}`, token)).json().lastMessageAck).toBe(4);
  }, 30000);

  it("acks still due when the server restarts are delivered after it comes back", async () => {
    const { ticketId } = await inbound(app, t.admin.token, wa, { number: newNumber() });
    await api("PUT", `/api/tickets/${ticketId}`, t.admin.token, { action: "accept" });
    const sent = (await api("POST", `/api/messages/${ticketId}`, t.admin.token, { body: "antes do reinício" })).json().messages[0];
    const { channels } = await import("./manager.js");
    await channels(app.ctx).stopAll(); // the process stops before any ack
    await new Promise((r) => setTimeout(r, 1200));
    const ackOf = async () => (await app.sql.one<{ ack: number }>("SELECT ack FROM messages WHERE id = $1", [sent.id])).ack;
    expect(await ackOf()).toBe(1);
    await channels(app.ctx).startConnected();
    const until = Date.now() + 8000;
    while ((await ackOf()) < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await ackOf()).toBe(3);
  }, 20000);
});

describe("one person, one contact (QR-code channels)", () => {
  it("a reply from the 8-digit form of a Brazilian mobile lands in the ticket started with the 9-digit number, and answers go to WhatsApp's form", async () => {
    const created = await api("POST", "/api/tickets", t.admin.token, { number: "(31) 98765-4321", whatsappId: wa, userId: t.admin.id, status: "open" });
    expect(created.statusCode, created.body).toBe(200);
    const ticketId = created.json().id as number;
    expect(created.json().contact.number).toBe("5531987654321");

    const reply = await inbound(app, t.admin.token, wa, { number: "553187654321", body: "respondendo do número antigo" });
    expect(reply.ticketId).toBe(ticketId);
    const contacts = await app.sql.many<{ number: string; wa_id: string | null }>(
      "SELECT number, wa_id FROM contacts WHERE company_id = $1 AND number LIKE '%87654321' ORDER BY id",
      [t.companyId],
    );
    expect(contacts).toEqual([{ number: "5531987654321", wa_id: "553187654321" }]);

    const sent = await api("POST", `/api/messages/${ticketId}`, t.admin.token, { body: "recebido!", sign: false });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await phoneOutbox(app, t.admin.token, wa, "553187654321")).toEqual(["recebido!"]);
  });
});
