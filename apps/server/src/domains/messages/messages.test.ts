import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, setSetting } from "../../channels/testing.js";
import { applyVariables, greetingFor } from "./variables.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let queueA: number;
let wa: number;
let seq = 0;
const newNumber = () => `5521${String(900000000 + ++seq * 7919).slice(0, 9)}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-messages-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
  await app.sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, t.user.id, queueA]);
  wa = await connectedSandbox(app, t.admin.token, { queueIds: [queueA] });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });

async function openTicketFor(token: string, name = "Ana Lima", number = newNumber()): Promise<number> {
  const { ticketId } = await inbound(app, t.admin.token, wa, { number, name, body: "oi" });
  const res = await api("PUT", `/api/tickets/${ticketId}`, token, { action: "accept" });
  expect(res.statusCode).toBe(200);
  return ticketId;
}

function multipart(fields: Record<string, string>, files: { field: string; name: string; type: string; data: Buffer }[]) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([f.data], { type: f.type }), f.name);
  const req = new Request("http://x", { method: "POST", body: form });
  return { contentType: req.headers.get("content-type")!, body: req.arrayBuffer() };
}

async function postMultipart(url: string, token: string, fields: Record<string, string>, files: Parameters<typeof multipart>[1]) {
  const m = multipart(fields, files);
  return app.app.inject({
    method: "POST",
    url,
    headers: { authorization: `Bearer ${token}`, "content-type": m.contentType },
    payload: Buffer.from(await m.body),
  });
}

describe("message variables", () => {
  it("substitutes firstName, name, ms, protocol and hora", () => {
    const at = new Date("2024-05-10T13:05:09Z"); // 10:05:09 in São Paulo
    const text = applyVariables("{{ms}}, {{firstName}} ({{name}}) #{{protocol}} às {{hora}} {{unknown}}", {
      contactName: "João da Silva",
      protocol: "2024051042",
      now: at,
    });
    expect(text).toBe("Bom dia, João (João da Silva) #2024051042 às 10:05:09 {{unknown}}");
    expect(greetingFor(new Date("2024-05-10T17:00:00Z"))).toBe("Boa tarde");
    expect(greetingFor(new Date("2024-05-10T23:30:00Z"))).toBe("Boa noite");
  });
});

describe("messages", () => {
  it("refuses without a session and across companies", async () => {
    const id = await openTicketFor(t.user.token);
    expect((await api("GET", `/api/messages/${id}`, undefined)).statusCode).toBe(401);
    expect((await api("POST", `/api/messages/${id}`, undefined, { body: "x" })).statusCode).toBe(401);
    expect((await api("DELETE", "/api/messages/1", undefined)).statusCode).toBe(401);
    expect((await api("GET", "/api/messages/media/1", undefined)).statusCode).toBe(401);
    expect((await api("GET", `/api/messages/${id}`, other.admin.token)).json().error).toBe("ERR_NO_TICKET_FOUND");
    expect((await api("POST", `/api/messages/${id}`, other.admin.token, { body: "x" })).json().error).toBe("ERR_NO_TICKET_FOUND");
  });

  it("sends text signed with the agent's name, variables substituted; records the agent", async () => {
    const id = await openTicketFor(t.user.token, "Bruno Costa");
    const res = await api("POST", `/api/messages/${id}`, t.user.token, { body: "{{firstName}}, seu protocolo é {{protocol}}" });
    expect(res.statusCode).toBe(200);
    const [m] = res.json().messages;
    const ticket = (await api("GET", `/api/tickets/${id}`, t.user.token)).json();
    expect(m).toMatchObject({ fromMe: true, ack: 1, userId: t.user.id, user: { name: "Agent" }, ticketId: id });
    expect(m.body).toBe(`*Agent*:\nBruno, seu protocolo é ${ticket.code}`);
    expect(ticket.lastMessage).toBe(m.body);
    const unsigned = await api("POST", `/api/messages/${id}`, t.user.token, { body: "sem assinatura", sign: false });
    expect(unsigned.json().messages[0].body).toBe("sem assinatura");
    await setSetting(app, t.companyId, "signMessages", "disabled");
    expect((await api("POST", `/api/messages/${id}`, t.user.token, { body: "empresa sem assinatura" })).json().messages[0].body).toBe("empresa sem assinatura");
    await setSetting(app, t.companyId, "signMessages", "enabled");
    expect((await api("POST", `/api/messages/${id}`, t.user.token, { body: "   " })).json().error).toBe("ERR_VALIDATION");
  });

  it("ERR_TICKET_USER_MISMATCH (409, with the ticket) when another user holds it; admins may write", async () => {
    const id = await openTicketFor(t.admin.token);
    const res = await api("POST", `/api/messages/${id}`, t.user.token, { body: "posso?" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: "ERR_TICKET_USER_MISMATCH", ticket: { id, userId: t.admin.id } });
    const mine = await openTicketFor(t.user.token);
    expect((await api("POST", `/api/messages/${mine}`, t.admin.token, { body: "admin aqui", sign: false })).statusCode).toBe(200);
    // not open → no input
    await api("PUT", `/api/tickets/${mine}`, t.user.token, { action: "finish" });
    expect((await api("POST", `/api/messages/${mine}`, t.user.token, { body: "fechado" })).json().error).toBe("ERR_NO_PERMISSION");
  });

  it("an open ticket nobody holds: the input is the assignee's or an admin's (1-core §2), so a user may not write", async () => {
    const { ticketId } = await inbound(app, t.admin.token, wa, { number: newNumber(), body: "sem dono" });
    await app.sql.exec("UPDATE tickets SET status = 'open', user_id = NULL WHERE id = $1", [ticketId]);
    const res = await api("POST", `/api/messages/${ticketId}`, t.user.token, { body: "posso?" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("POST", `/api/messages/${ticketId}`, t.admin.token, { body: "admin", sign: false })).statusCode).toBe(200);
  });

  it("replies quote the message; the quote must belong to the conversation", async () => {
    const id = await openTicketFor(t.user.token);
    const first = (await api("GET", `/api/messages/${id}`, t.user.token)).json().messages[0];
    const res = await api("POST", `/api/messages/${id}`, t.user.token, { body: "respondendo", quotedMsg: { id: first.id, body: "oi" } });
    expect(res.json().messages[0]).toMatchObject({ quotedMsgId: first.id, quotedMsg: { id: first.id, body: "oi", fromMe: false } });
    const elsewhere = await openTicketFor(t.user.token);
    const bad = await api("POST", `/api/messages/${elsewhere}`, t.user.token, { body: "x", quotedMsg: { id: first.id } });
    expect(bad.statusCode).toBe(400);
  });

  it("pages 20 at a time, chronological within a page, over the contact's earlier tickets too", async () => {
    const number = newNumber();
    const firstTicket = (await inbound(app, t.admin.token, wa, { number, body: "primeiro atendimento" })).ticketId;
    await api("PUT", `/api/tickets/${firstTicket}`, t.admin.token, { action: "finish" });
    let ticketId = 0;
    for (let i = 1; i <= 24; i++) ticketId = (await inbound(app, t.admin.token, wa, { number, body: `msg ${i}` })).ticketId;
    expect(ticketId).not.toBe(firstTicket);
    const p1 = (await api("GET", `/api/messages/${ticketId}`, t.admin.token)).json();
    expect(p1.messages).toHaveLength(20);
    expect(p1.hasMore).toBe(true);
    expect(p1.messages[0].body).toBe("msg 5");
    expect(p1.messages[19].body).toBe("msg 24");
    const p2 = (await api("GET", `/api/messages/${ticketId}?pageNumber=2`, t.admin.token)).json();
    expect(p2.hasMore).toBe(false);
    expect(p2.messages.map((m: { body: string }) => m.body)).toEqual(["primeiro atendimento", "msg 1", "msg 2", "msg 3", "msg 4"]);
    expect(p2.messages[0].ticketId).toBe(firstTicket);
  });

  it("accepts the body the spec's front end sends (read: 1, fromMe: true, mediaUrl: \"\")", async () => {
    const id = await openTicketFor(t.user.token);
    const res = await api("POST", `/api/messages/${id}`, t.user.token, { read: 1, fromMe: true, mediaUrl: "", body: "Bom dia", quotedMsg: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messages[0]).toMatchObject({ body: "*Agent*:\nBom dia", fromMe: true, mediaType: "chat" });
    expect((await api("POST", `/api/messages/${id}`, t.user.token, { read: 2, body: "x" })).json().error).toBe("ERR_VALIDATION");
  });

  it("sends attachments (multipart) stored privately and served only to the company", async () => {
    const id = await openTicketFor(t.user.token);
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const res = await postMultipart(`/api/messages/${id}`, t.user.token, { body: "veja" }, [
      { field: "medias", name: "foto.png", type: "image/png", data: png },
      { field: "medias", name: "nota.mp3", type: "audio/mpeg", data: Buffer.alloc(12000, 1) },
    ]);
    expect(res.statusCode).toBe(200);
    const [img, audio] = res.json().messages;
    expect(img).toMatchObject({ mediaType: "image", body: "*Agent*:\nveja", mediaName: "foto.png", mediaUrl: `/messages/media/${img.id}` });
    expect(audio).toMatchObject({ mediaType: "audio", body: "" });
    const file = await api("GET", `/api/messages/media/${img.id}`, t.user.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.rawPayload.equals(png)).toBe(true);
    expect((await api("GET", `/api/messages/media/${img.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await app.app.inject({ method: "GET", url: `/media/${t.companyId}` })).statusCode).toBe(404);
  });

  it("refuses attachments over 10 MB in total with 413", async () => {
    const id = await openTicketFor(t.user.token);
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    const res = await postMultipart(`/api/messages/${id}`, t.user.token, {}, [
      { field: "medias", name: "a.bin", type: "application/octet-stream", data: big },
      { field: "medias", name: "b.bin", type: "application/octet-stream", data: big },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: "ERR_PAYLOAD_TOO_LARGE", message: "O arquivo excede o tamanho máximo de 10MB" });
  });

  it("deletes only the agent's own messages", async () => {
    const id = await openTicketFor(t.user.token);
    const mine = (await api("POST", `/api/messages/${id}`, t.user.token, { body: "apagar" })).json().messages[0];
    const customer = (await api("GET", `/api/messages/${id}`, t.user.token)).json().messages[0];
    expect((await api("DELETE", `/api/messages/${customer.id}`, t.user.token)).json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("DELETE", `/api/messages/${mine.id}`, t.admin.token)).json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("DELETE", `/api/messages/${mine.id}`, other.admin.token)).statusCode).toBe(404);
    const del = await api("DELETE", `/api/messages/${mine.id}`, t.user.token);
    expect(del.json()).toMatchObject({ id: mine.id, isDeleted: true });
    const outbox = (await api("GET", `/api/sandbox/${wa}/outbox?outboundOnly=true`, t.admin.token)).json().records;
    expect(outbox.find((r: { body: string; isDeleted: boolean }) => r.isDeleted)).toBeTruthy();
  });
});
