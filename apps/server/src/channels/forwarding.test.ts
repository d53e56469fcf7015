import { EventEmitter } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AnyMessageContent, BaileysEventMap, MiscMessageGenerationOptions, WAMessage, WAMessageKey } from "baileys";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../app.js";
import { buildTenant, createTestApp, type TestApp } from "../../test/helper.js";
import { registerBaileys } from "./baileys/index.js";
import type { BaileysSocket, SocketFactoryInput } from "./baileys/socket.js";
import { channels } from "./manager.js";
import { connectedSandbox } from "./testing.js";
import { waitFor } from "../../test/wait.js";

/**
 * Driver-direct actions asked of a process that does not run the connection: A (ROLE all) runs the
 * connections, B is a web process (ROLE web: no sessions, no jobs) on the same database. Every action
 * asked of B is carried to A and A's answer (or error) is B's.
 */

/** A Baileys socket as the library's own shape (the parts the driver uses): numbers ending in 0000 have no WhatsApp. */
class Phone implements BaileysSocket {
  private readonly emitter = new EventEmitter();
  readonly ev = { on: <T extends keyof BaileysEventMap>(e: T, l: (arg: BaileysEventMap[T]) => void) => void this.emitter.on(e, l) };
  user?: { id: string };
  sent: string[] = [];
  read: WAMessageKey[][] = [];
  checked: string[] = [];
  constructor(readonly input: SocketFactoryInput) {
    const me = input.auth.creds.me?.id;
    if (me) this.user = { id: me };
  }
  emit<T extends keyof BaileysEventMap>(e: T, arg: BaileysEventMap[T]) {
    this.emitter.emit(e, arg);
  }
  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage> {
    this.sent.push("text" in content ? content.text : "delete" in content ? `delete:${content.delete?.id}` : "?");
    return { key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? `ID${this.sent.length}` } };
  }
  async readMessages(keys: WAMessageKey[]) {
    this.read.push(keys);
  }
  async logout() {}
  end() {}
  async onWhatsApp(...numbers: string[]) {
    this.checked.push(...numbers);
    return numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: !n.endsWith("0000") }));
  }
}
const phones: Phone[] = [];
const closeWith = (statusCode: number): BaileysEventMap["connection.update"] => ({
  connection: "close",
  lastDisconnect: { error: Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } }), date: new Date() },
});

let a: TestApp;
let b: BuiltApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-forward-"));
  a = await createTestApp({ dataDir });
  t = await buildTenant(a);
  b = await buildApp({ ...a.ctx.config, role: "web", runJobs: false, runSessions: false, driverCallTimeoutMs: 1500 }, a.pool, a.databaseUrl);
  await b.start();
  await b.app.ready();
  // after both apps are built (each registers the real socket): the phone stands in for WhatsApp's servers
  registerBaileys({ socketFactory: (input) => phones[phones.push(new Phone(input)) - 1]!, backoff: { baseMs: 5, maxMs: 20 } });
});
afterAll(async () => {
  await b.close();
  await a.close();
  await rm(dataDir, { recursive: true, force: true });
});

const onB = (method: string, url: string, body?: unknown, token = t.admin.token) =>
  b.app.inject({ method: method as "POST", url, payload: body as object, headers: { authorization: `Bearer ${token}` } });
const owner = async (wa: number) => (await a.sql.maybe<{ owner_id: string }>("SELECT owner_id FROM connection_owners WHERE whatsapp_id = $1", [wa]))?.owner_id;
const until = (check: () => Promise<boolean> | boolean, ms = 5000) => waitFor(check, ms, "condition", 10);

describe("a web process carries driver actions to the process that runs the connection", () => {
  it("the sandbox phone used on B: the scan starts the session on A, customers' messages and read marks run on A", async () => {
    const created = await onB("POST", "/api/whatsapp", { name: "Sandbox B", provider: "sandbox", queueIds: [], greetingMessage: "", complationMessage: "" });
    expect(created.statusCode, created.body).toBe(200);
    const wa = created.json().id as number;
    // B runs no session: the scan is taken by a process that does (A), which holds the lease afterwards
    const scan = await onB("POST", `/api/sandbox/${wa}/scan`);
    expect(scan.statusCode, scan.body).toBe(200);
    expect(scan.json().status).toBe("CONNECTED");
    expect(await owner(wa)).toBe(channels(a.ctx).ownerId);
    expect(channels(b.ctx).get(wa)).toBeUndefined();
    expect(channels(a.ctx).get(wa)).toBeDefined();

    const first = await onB("POST", `/api/sandbox/${wa}/inbound`, { number: "5531966660001", name: "Cliente", body: "primeira via B" });
    expect(first.statusCode, first.body).toBe(200);
    const { ticketId } = first.json() as { ticketId: number };
    const stored = await a.sql.many<{ body: string; ticket_id: number }>("SELECT body, ticket_id FROM messages WHERE whatsapp_id = $1 AND NOT from_me", [wa]);
    expect(stored).toEqual([{ body: "primeira via B", ticket_id: ticketId }]);

    // several at once, in order, each once
    const bodies = ["um", "dois", "três", "quatro"];
    const all = await Promise.all(bodies.map((body) => onB("POST", `/api/sandbox/${wa}/inbound`, { number: "5531966660001", name: "Cliente", body })));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const inOrder = await a.sql.many<{ body: string }>("SELECT body FROM messages WHERE whatsapp_id = $1 AND NOT from_me ORDER BY id", [wa]);
    expect(inOrder.map((m) => m.body).sort()).toEqual(["dois", "primeira via B", "quatro", "três", "um"]);

    // the agent reads the ticket on B: the phone's messages are marked read by A's driver
    expect((await onB("PUT", `/api/tickets/${ticketId}`, { status: "open", userId: t.admin.id })).statusCode).toBe(200);
    const read = await onB("POST", `/api/tickets/${ticketId}/read`);
    expect(read.statusCode, read.body).toBe(200);
    const unread = await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_messages WHERE whatsapp_id = $1 AND direction = 'inbound' AND ack < 4", [wa]);
    expect(unread.n).toBe(0);

    // the agent's message sent on B goes out through A; deleting it on B deletes it on the phone through A
    const sent = await onB("POST", `/api/messages/${ticketId}`, { body: "resposta via B", sign: false });
    expect(sent.statusCode, sent.body).toBe(200);
    const messageId = sent.json().messages[0].id as number;
    const deleted = await onB("DELETE", `/api/messages/${messageId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const phone = await a.sql.one<{ is_deleted: boolean }>("SELECT is_deleted FROM sandbox_messages WHERE whatsapp_id = $1 AND body = 'resposta via B'", [wa]);
    expect(phone.is_deleted).toBe(true);

    // the phone page opened on B: the agent's message is read (ack 4) by A's driver
    const phoneRead = await onB("POST", `/api/sandbox/${wa}/read`, { number: "5531966660001" });
    expect(phoneRead.statusCode, phoneRead.body).toBe(200);
    expect(phoneRead.json()).toEqual({ updated: 1 });
  });

  it("the owner's refusal is B's answer: a session showing its QR code takes no customer message", async () => {
    const wa = (await onB("POST", "/api/whatsapp", { name: "Sandbox QR", provider: "sandbox", queueIds: [], greetingMessage: "", complationMessage: "" })).json().id as number;
    const start = await onB("POST", `/api/whatsappsession/${wa}`);
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().status).toBe("qrcode");
    expect(await owner(wa)).toBe(channels(a.ctx).ownerId);
    const res = await onB("POST", `/api/sandbox/${wa}/inbound`, { number: "5531966660002", name: "Cliente", body: "cedo demais" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: "ERR_WAPP_NOT_INITIALIZED", message: "A conexão sandbox não está conectada" });
    // the call was answered and read: nothing is left behind
    expect((await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM driver_calls WHERE whatsapp_id = $1", [wa])).n).toBe(0);
  });

  it("a Baileys connection run by A: the external API on B checks the number with A's socket and sends through A", async () => {
    const res = await onB("POST", "/api/whatsapp", { name: "Baileys", provider: "baileys", queueIds: [], greetingMessage: "", complationMessage: "" });
    expect(res.statusCode, res.body).toBe(200);
    const wa = res.json().id as number;
    const started = await onB("POST", `/api/whatsappsession/${wa}`);
    expect(started.statusCode, started.body).toBe(200);
    // the phone is paired on A: QR, pairing, restart, open (the device's keys written under A's fence)
    await until(() => phones.length > 0);
    const qrSocket = phones[phones.length - 1]!;
    qrSocket.emit("connection.update", { qr: "QR-B" });
    await until(async () => (await a.sql.one<{ status: string }>("SELECT status FROM whatsapps WHERE id = $1", [wa])).status === "qrcode");
    qrSocket.input.auth.creds.me = { id: "5531955550001:7@s.whatsapp.net", name: "Loja" };
    qrSocket.emit("creds.update", { me: qrSocket.input.auth.creds.me });
    const count = phones.length;
    qrSocket.emit("connection.update", closeWith(515));
    await until(() => phones.length === count + 1);
    phones[phones.length - 1]!.emit("connection.update", { connection: "open" });
    await until(async () => (await a.sql.one<{ status: string }>("SELECT status FROM whatsapps WHERE id = $1", [wa])).status === "CONNECTED");
    const socket = phones[phones.length - 1]!;
    expect(await owner(wa)).toBe(channels(a.ctx).ownerId);

    const token = (await onB("POST", `/api/whatsapp/${wa}/token`)).json().token as string;
    const noWhatsapp = await b.app.inject({ method: "POST", url: "/api/messages/send", payload: { number: "5531944440000", body: "oi" }, headers: { authorization: `Bearer ${token}` } });
    expect(noWhatsapp.statusCode, noWhatsapp.body).toBe(400);
    expect(noWhatsapp.json().error).toBe("ERR_WAPP_INVALID_CONTACT");
    const ok = await b.app.inject({ method: "POST", url: "/api/messages/send", payload: { number: "5531944441111", body: "pedido enviado" }, headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(socket.checked).toEqual(["5531944440000", "5531944441111"]);
    expect(socket.sent).toEqual(["pedido enviado"]);
  });

  it("no answer in time (the owner is paused or gone): ERR_WAPP_OWNER_UNREACHABLE, and the call is withdrawn so it never runs late", async () => {
    const wa = await connectedSandbox(a, t.admin.token);
    // a live-looking owner that never answers: another host's process
    await a.sql.exec("UPDATE connection_owners SET owner_id = 'another-host:4242:cafe0001', heartbeat_at = now() WHERE whatsapp_id = $1", [wa]);
    await until(() => channels(a.ctx).get(wa) === undefined); // A noticed it lost the lease
    const res = await onB("POST", `/api/sandbox/${wa}/inbound`, { number: "5531966660003", name: "Cliente", body: "ninguém responde" });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe("ERR_WAPP_OWNER_UNREACHABLE");
    const calls = await a.sql.many<{ state: string }>("SELECT state FROM driver_calls WHERE whatsapp_id = $1", [wa]);
    expect(calls).toEqual([{ state: "abandoned" }]);
    expect((await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_messages WHERE whatsapp_id = $1 AND body = 'ninguém responde'", [wa])).n).toBe(0);
  });
});
