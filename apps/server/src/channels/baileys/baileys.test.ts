import { EventEmitter } from "node:events";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AnyMessageContent, BaileysEventMap, MiscMessageGenerationOptions, WAMessage, WAMessageKey } from "baileys";
import { proto } from "baileys";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { mediaStorage } from "../../core/storage.js";
import { channels } from "../manager.js";
import { BaileysDriver } from "./driver.js";
import { registerBaileys } from "./index.js";
import { MessageStore } from "./message-store.js";
import type { BaileysSocket, SocketFactoryInput } from "./socket.js";
import { baileysAuthPlace } from "../../core/secrets/columns.js";
import { waitFor } from "../../../test/wait.js";

/** A stand-in for a Baileys socket: same event API, records what the driver sends. */
class FakeSocket implements BaileysSocket {
  readonly emitter = new EventEmitter();
  readonly ev = {
    on: <T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void) => {
      this.emitter.on(event, listener);
    },
  };
  user?: { id: string };
  sent: { jid: string; content: AnyMessageContent; options?: MiscMessageGenerationOptions }[] = [];
  read: WAMessageKey[][] = [];
  loggedOut = false;
  ended = false;

  constructor(readonly input: SocketFactoryInput) {
    const me = input.auth.creds.me?.id;
    if (me) this.user = { id: me };
  }

  emit<T extends keyof BaileysEventMap>(event: T, arg: BaileysEventMap[T]): void {
    this.emitter.emit(event, arg);
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage> {
    if (jid.startsWith("5511912349999")) throw new Error("not-acceptable");
    this.sent.push({ jid, content, options });
    const text = "text" in content ? content.text : "";
    const msg: WAMessage = { key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? "NOID" }, message: { conversation: text } };
    // Baileys echoes our own message as an 'append' upsert; here it even arrives before sendMessage resolves.
    this.emit("messages.upsert", { messages: [msg], type: "append" });
    await new Promise((r) => setTimeout(r, 30));
    return msg;
  }
  async readMessages(keys: WAMessageKey[]): Promise<void> {
    this.read.push(keys);
  }
  async logout(): Promise<void> {
    this.loggedOut = true;
    this.emit("connection.update", closeWith(401));
  }
  end(): void {
    this.ended = true;
  }
  async groupMetadata(): Promise<{ subject: string }> {
    return { subject: "Grupo da Família" };
  }
  pairingRequests: string[] = [];
  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingRequests.push(phoneNumber);
    return `PAIR${String(this.pairingRequests.length).padStart(4, "0")}`;
  }
  async onWhatsApp(...numbers: string[]): Promise<{ jid: string; exists: boolean }[]> {
    return numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: !n.endsWith("0000") }));
  }
}

const closeWith = (statusCode: number): BaileysEventMap["connection.update"] => ({
  connection: "close",
  lastDisconnect: { error: Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } }), date: new Date() },
});

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
const sockets: FakeSocket[] = [];
const downloads = new Map<string, Buffer>();
const emitted: { channel: string; payload: unknown }[] = [];

beforeAll(async () => {
  app = await createTestApp({ dataDir: await mkdtemp(path.join(os.tmpdir(), "atende-baileys-")) });
  registerBaileys({
    socketFactory: (input) => {
      const s = new FakeSocket(input);
      sockets.push(s);
      return s;
    },
    download: async (msg) => {
      const data = downloads.get(msg.key.id ?? "");
      if (!data) throw new Error("media gone");
      return data;
    },
    backoff: { baseMs: 5, maxMs: 20 },
  });
  const original = app.ctx.realtime.emit.bind(app.ctx.realtime);
  vi.spyOn(app.ctx.realtime, "emit").mockImplementation((room, channel, payload) => {
    emitted.push({ channel, payload });
    original(room, channel, payload);
  });
  t = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
});

const until = (check: () => boolean | Promise<boolean>, ms = 3000) => waitFor(check, ms, "condition", 5);

const driverOf = (id: number) => channels(app.ctx).get(id) as BaileysDriver;
const last = () => sockets[sockets.length - 1]!;
const row = (id: number) => app.sql.one<{ status: string; qrcode: string; number: string }>("SELECT status, qrcode, number FROM whatsapps WHERE id = $1", [id]);

async function emitAndSettle<T extends keyof BaileysEventMap>(id: number, event: T, arg: BaileysEventMap[T], sock = last()): Promise<void> {
  sock.emit(event, arg);
  await driverOf(id).idle();
}

/** Creates a baileys connection, shows a QR, "scans" it (pairing + restartRequired) and opens. */
async function pairedConnection(name: string, phone: string): Promise<number> {
  const res = await app.api("POST", "/api/whatsapp", { token: t.admin.token, body: { name, provider: "baileys" } });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as number;
  const first = last();
  await emitAndSettle(id, "connection.update", { qr: `QR-${name}` }, first);
  expect(await row(id)).toMatchObject({ status: "qrcode", qrcode: `QR-${name}` });
  first.input.auth.creds.me = { id: `${phone}:7@s.whatsapp.net`, name };
  first.emit("creds.update", { me: first.input.auth.creds.me });
  const count = sockets.length;
  await emitAndSettle(id, "connection.update", closeWith(515), first);
  await until(() => sockets.length === count + 1);
  await emitAndSettle(id, "connection.update", { connection: "open" });
  expect(await row(id)).toMatchObject({ status: "CONNECTED", qrcode: "", number: phone });
  return id;
}

function upsert(id: number, messages: WAMessage[], type: "notify" | "append" = "notify") {
  return emitAndSettle(id, "messages.upsert", { messages, type });
}

const messageRow = (whatsappId: number, providerId: string) =>
  app.sql.maybe<{
    id: number;
    ticket_id: number;
    contact_id: number;
    body: string;
    media_type: string;
    media_path: string | null;
    media_name: string | null;
    mimetype: string | null;
    from_me: boolean;
    ack: number;
    is_edited: boolean;
    is_deleted: boolean;
    quoted_msg_id: number | null;
  }>("SELECT * FROM messages WHERE whatsapp_id = $1 AND provider_id = $2", [whatsappId, providerId]);

const contactsWith = (number: string) =>
  app.sql.many<{ id: number; name: string; is_group: boolean }>("SELECT id, name, is_group FROM contacts WHERE company_id = $1 AND number = $2", [
    t.companyId,
    number,
  ]);

describe("Baileys driver: session", () => {
  it("shows the QR, pairs, stores creds in PostgreSQL and resumes after a restart without a new QR", async () => {
    const id = await pairedConnection("Loja", "5511988887777");
    const creds = await app.sql.one<{ value: string }>("SELECT value FROM baileys_auth WHERE whatsapp_id = $1 AND key = 'creds'", [id]);
    expect(JSON.parse(app.ctx.secrets.open(baileysAuthPlace(t.companyId, id, "creds"), creds.value)).me.id).toBe("5511988887777:7@s.whatsapp.net");
    expect(emitted.some((e) => e.channel === `company-${t.companyId}-whatsappSession` && (e.payload as { session: { qrcode: string } }).session.qrcode === "QR-Loja")).toBe(true);

    // "Restart": drivers stop without logging out; the manager resumes CONNECTED sessions.
    await channels(app.ctx).stopAll();
    expect(sockets.at(-1)!.ended).toBe(true);
    const count = sockets.length;
    await channels(app.ctx).startConnected();
    // the freed lease's announcement may reach this same process first: its heartbeat tick then takes
    // the connection over, and startConnected finds it owned and returns before that socket exists
    await until(() => sockets.length >= count + 1);
    expect(sockets.length).toBe(count + 1);
    expect(last().input.auth.creds.me?.id).toBe("5511988887777:7@s.whatsapp.net");
    expect((await row(id)).status).toBe("CONNECTED"); // not OPENING, not a QR
    await emitAndSettle(id, "connection.update", { connection: "open" });
    expect(await row(id)).toMatchObject({ status: "CONNECTED", number: "5511988887777" });
  });

  it("reconnects with backoff after a lost connection", async () => {
    const id = await pairedConnection("Reconnect", "5511977776666");
    const count = sockets.length;
    await emitAndSettle(id, "connection.update", closeWith(428));
    expect((await row(id)).status).toBe("OPENING");
    await until(() => sockets.length === count + 1);
    expect(last().input.auth.creds.me?.id).toContain("5511977776666");
    await emitAndSettle(id, "connection.update", { connection: "open" });
    expect((await row(id)).status).toBe("CONNECTED");
  });

  it("logged out from the phone: forgets the pairing, DISCONNECTED, next start offers a new QR", async () => {
    const id = await pairedConnection("Logout", "5511966665555");
    const count = sockets.length;
    await emitAndSettle(id, "connection.update", closeWith(401));
    expect((await row(id)).status).toBe("DISCONNECTED");
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM baileys_auth WHERE whatsapp_id = $1", [id])).n).toBe(0);
    await new Promise((r) => setTimeout(r, 40));
    expect(sockets.length).toBe(count); // no reconnection

    const start = await app.api("POST", `/api/whatsappsession/${id}`, { token: t.admin.token });
    expect(start.statusCode, start.body).toBe(200);
    expect(last().input.auth.creds.me).toBeUndefined();
    await emitAndSettle(id, "connection.update", { qr: "QR-NEW" });
    expect(await row(id)).toMatchObject({ status: "qrcode", qrcode: "QR-NEW" });
  });

  it("pairs by phone number: POST /whatsappsession/{id} {phoneNumber} requests a code and reports PAIRING with it", async () => {
    const res = await app.api("POST", "/api/whatsapp", { token: t.admin.token, body: { name: "Por número", provider: "baileys" } });
    const id = res.json().id as number;
    const bad = await app.api("POST", `/api/whatsappsession/${id}`, { token: t.admin.token, body: { phoneNumber: "12" } });
    expect(bad.json().error).toBe("ERR_VALIDATION");
    const start = await app.api("POST", `/api/whatsappsession/${id}`, { token: t.admin.token, body: { phoneNumber: "+55 (11) 94444-3333" } });
    expect(start.statusCode, start.body).toBe(200);
    const sock = last();
    const before = emitted.length;
    // the socket is ready to pair (its first QR): a code is requested instead of showing the QR
    await emitAndSettle(id, "connection.update", { qr: "QR-IGNORED" }, sock);
    expect(sock.pairingRequests).toEqual(["5511944443333"]);
    expect(await row(id)).toMatchObject({ status: "PAIRING" });
    const sessions = emitted
      .slice(before)
      .filter((e) => e.channel === `company-${t.companyId}-whatsappSession`)
      .map((e) => (e.payload as { session: { status: string; qrcode: string; pairingCode?: string } }).session);
    expect(sessions.at(-1)).toEqual({ id, status: "PAIRING", qrcode: "", pairingCode: "PAIR0001" });
    const listed = (await app.api("GET", "/api/whatsapp", { token: t.admin.token })).json().find((w: { id: number }) => w.id === id);
    expect(listed).toMatchObject({ status: "PAIRING", qrcode: "", pairingCode: "PAIR0001" });
    // a QR refresh of the same socket keeps the code (no second request, no QR shown)
    await emitAndSettle(id, "connection.update", { qr: "QR-REFRESH" }, sock);
    expect(sock.pairingRequests).toHaveLength(1);
    expect((await row(id)).status).toBe("PAIRING");
    // the phone accepts the code: restartRequired, then the session opens
    sock.input.auth.creds.me = { id: "5511944443333:3@s.whatsapp.net", name: "Por número" };
    sock.input.auth.creds.registered = true;
    const count = sockets.length;
    await emitAndSettle(id, "connection.update", closeWith(515), sock);
    await until(() => sockets.length === count + 1);
    await emitAndSettle(id, "connection.update", { connection: "open" });
    expect(await row(id)).toMatchObject({ status: "CONNECTED", qrcode: "", number: "5511944443333" });
  });

  it("TIMEOUT when every QR code expired unscanned", async () => {
    const res = await app.api("POST", "/api/whatsapp", { token: t.admin.token, body: { name: "Timeout", provider: "baileys" } });
    const id = res.json().id as number;
    await emitAndSettle(id, "connection.update", { qr: "QR-T" });
    const count = sockets.length;
    await emitAndSettle(id, "connection.update", closeWith(408));
    expect((await row(id)).status).toBe("TIMEOUT");
    await new Promise((r) => setTimeout(r, 40));
    expect(sockets.length).toBe(count);
  });

  it("disconnect (DELETE /whatsappsession) logs out and removes the stored pairing", async () => {
    const id = await pairedConnection("Bye", "5511955554444");
    const sock = last();
    const res = await app.api("DELETE", `/api/whatsappsession/${id}`, { token: t.admin.token });
    expect(res.statusCode).toBe(200);
    expect(sock.loggedOut).toBe(true);
    expect((await row(id)).status).toBe("DISCONNECTED");
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM baileys_auth WHERE whatsapp_id = $1", [id])).n).toBe(0);
  });
});

describe("Baileys driver: messages through the inbound pipeline", () => {
  let wa: number;
  const customer = "5511911112222";
  const pnJid = `${customer}@s.whatsapp.net`;

  beforeAll(async () => {
    wa = await pairedConnection("Atendimento", "5511900001111");
  });

  it("a text message creates the contact (by number), a pending ticket and the message, with events", async () => {
    emitted.length = 0;
    await upsert(wa, [{ key: { remoteJid: pnJid, fromMe: false, id: "T1" }, pushName: "Maria", message: { conversation: "Olá" }, messageTimestamp: 1_700_000_000 }]);
    const m = await messageRow(wa, "T1");
    expect(m).toMatchObject({ body: "Olá", media_type: "chat", from_me: false });
    expect(await contactsWith(customer)).toEqual([expect.objectContaining({ name: "Maria", is_group: false })]);
    const ticket = await app.sql.one<{ status: string; contact_id: number }>("SELECT status, contact_id FROM tickets WHERE id = $1", [m!.ticket_id]);
    expect(ticket.status).toBe("pending");
    expect(emitted.some((e) => e.channel === `company-${t.companyId}-appMessage`)).toBe(true);
    expect(emitted.some((e) => e.channel === `company-${t.companyId}-contact`)).toBe(true);

    // The same delivery again changes nothing.
    await upsert(wa, [{ key: { remoteJid: pnJid, fromMe: false, id: "T1" }, pushName: "Maria", message: { conversation: "Olá" } }]);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE whatsapp_id = $1 AND provider_id = 'T1'", [wa])).n).toBe(1);
  });

  it("a LID sender is the same contact: remoteJidAlt, senderPn, or the stored lid mapping", async () => {
    const before = await messageRow(wa, "T1");
    await upsert(wa, [
      { key: { remoteJid: "100000000000001@lid", remoteJidAlt: pnJid, fromMe: false, id: "L1" }, pushName: "Maria", message: { conversation: "via lid" } },
    ]);
    await upsert(wa, [
      { key: { remoteJid: "100000000000001@lid", senderPn: pnJid, fromMe: false, id: "L2" } as WAMessageKey, pushName: "Maria", message: { conversation: "via senderPn" } },
    ]);
    await app.sql.exec("INSERT INTO baileys_auth (company_id, whatsapp_id, key, value) VALUES ($1, $2, 'lid-mapping-100000000000001_reverse', $3)", [
      t.companyId,
      wa,
      app.ctx.secrets.seal(baileysAuthPlace(t.companyId, wa, "lid-mapping-100000000000001_reverse"), JSON.stringify(customer)),
    ]);
    await upsert(wa, [{ key: { remoteJid: "100000000000001@lid", fromMe: false, id: "L3" }, pushName: "Maria", message: { conversation: "via mapping" } }]);
    for (const pid of ["L1", "L2", "L3"]) {
      const m = await messageRow(wa, pid);
      expect(m?.contact_id).toBe(before!.contact_id);
      expect(m?.ticket_id).toBe(before!.ticket_id);
    }
    expect(await contactsWith("100000000000001")).toEqual([]);
    expect(await contactsWith(customer)).toHaveLength(1);
  });

  it("an unmapped LID is renamed to the phone number when the mapping arrives", async () => {
    await upsert(wa, [{ key: { remoteJid: "100000000000777@lid", fromMe: false, id: "L7" }, pushName: "João", message: { conversation: "oi" } }]);
    expect(await contactsWith("100000000000777")).toHaveLength(1);
    await emitAndSettle(wa, "lid-mapping.update", { lid: "100000000000777@lid", pn: "5511944443333@s.whatsapp.net" });
    expect(await contactsWith("100000000000777")).toHaveLength(0);
    expect(await contactsWith("5511944443333")).toHaveLength(1);
  });

  it("a reply points at the quoted message", async () => {
    await upsert(wa, [
      {
        key: { remoteJid: pnJid, fromMe: false, id: "R1" },
        pushName: "Maria",
        message: { extendedTextMessage: { text: "respondendo", contextInfo: { stanzaId: "T1", participant: pnJid } } },
      },
    ]);
    const t1 = await messageRow(wa, "T1");
    expect(await messageRow(wa, "R1")).toMatchObject({ body: "respondendo", quoted_msg_id: t1!.id });
  });

  it("media is downloaded into storage under an opaque key; the sender's file name is only a display name", async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    downloads.set("IMG1", jpeg);
    downloads.set("DOC1", Buffer.from("%PDF-1.4 test"));
    downloads.set("AUD1", Buffer.from("OggS-voice"));
    downloads.set("VID1", Buffer.from("mp4-bytes"));
    await upsert(wa, [
      { key: { remoteJid: pnJid, fromMe: false, id: "IMG1" }, message: { imageMessage: { mimetype: "image/jpeg", caption: "foto", url: "https://mmg/x" } } },
      {
        key: { remoteJid: pnJid, fromMe: false, id: "DOC1" },
        message: { documentMessage: { mimetype: "application/pdf", fileName: "../../etc/passwd.pdf", url: "https://mmg/y" } },
      },
      { key: { remoteJid: pnJid, fromMe: false, id: "AUD1" }, message: { audioMessage: { mimetype: "audio/ogg; codecs=opus", ptt: true } } },
      { key: { remoteJid: pnJid, fromMe: false, id: "VID1" }, message: { videoMessage: { mimetype: "video/mp4", caption: "vídeo" } } },
    ]);
    const img = (await messageRow(wa, "IMG1"))!;
    expect(img).toMatchObject({ media_type: "image", body: "foto", mimetype: "image/jpeg" });
    expect(img.media_path).toMatch(new RegExp(`^${t.companyId}/\\d{4}-\\d{2}/[A-Za-z0-9_-]+\\.jpg$`));
    const opened = await mediaStorage(app.ctx.config.dataDir).open(img.media_path!);
    const chunks: Buffer[] = [];
    for await (const c of opened!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(jpeg)).toBe(true);

    const doc = (await messageRow(wa, "DOC1"))!;
    expect(doc).toMatchObject({ media_type: "application", media_name: "passwd.pdf" });
    expect(doc.media_path).not.toContain("passwd");
    expect(await messageRow(wa, "AUD1")).toMatchObject({ media_type: "audio", mimetype: "audio/ogg; codecs=opus" });
    expect((await messageRow(wa, "AUD1"))!.media_path).toMatch(/\.ogg$/);
    expect(await messageRow(wa, "VID1")).toMatchObject({ media_type: "video", body: "vídeo" });

    // The media route serves it to the company's admin.
    const res = await app.api("GET", `/api/messages/media/${img.id}`, { token: t.admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(jpeg)).toBe(true);
  });

  it("location, contact card and call log entries", async () => {
    await upsert(wa, [
      {
        key: { remoteJid: pnJid, fromMe: false, id: "LOC1" },
        message: { locationMessage: { degreesLatitude: -23.5613, degreesLongitude: -46.6565, name: "MASP", address: "Av. Paulista, 1578", jpegThumbnail: Buffer.from([1, 2, 3]) } },
      },
      { key: { remoteJid: pnJid, fromMe: false, id: "LOC2" }, message: { locationMessage: { degreesLatitude: 1, degreesLongitude: 2 } } },
      {
        key: { remoteJid: pnJid, fromMe: false, id: "VC1" },
        message: { contactMessage: { displayName: "Ana", vcard: "BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL;waid=5511922223333:+55 11 92222-3333\nEND:VCARD" } },
      },
    ]);
    expect((await messageRow(wa, "LOC1"))!.body).toBe(
      `data:image/jpeg;base64,${Buffer.from([1, 2, 3]).toString("base64")}|https://maps.google.com/maps?q=-23.5613,-46.6565|MASP\nAv. Paulista, 1578`,
    );
    expect(await messageRow(wa, "LOC1")).toMatchObject({ media_type: "locationMessage" });
    expect((await messageRow(wa, "LOC2"))!.body).toBe("|https://maps.google.com/maps?q=1,2|");
    expect(await messageRow(wa, "VC1")).toMatchObject({ media_type: "vcard", body: expect.stringContaining("FN:Ana") });

    await emitAndSettle(wa, "call", [
      { chatId: pnJid, from: "100000000000001@lid", callerPn: pnJid, id: "CALL1", date: new Date(), status: "offer", offline: false, isVideo: false },
      { chatId: pnJid, from: "100000000000001@lid", callerPn: pnJid, id: "CALL1", date: new Date(), status: "terminate", offline: false },
    ]);
    const call = await messageRow(wa, "CALL-CALL1");
    expect(call).toMatchObject({ media_type: "call_log", body: expect.stringMatching(/^Chamada de voz recebida às \d\d:\d\d$/) });
    expect(call!.contact_id).toBe((await messageRow(wa, "T1"))!.contact_id);
  });

  it("edits and revokes update the stored message", async () => {
    emitted.length = 0;
    await upsert(wa, [
      {
        key: { remoteJid: pnJid, fromMe: false, id: "EDIT-ENVELOPE" },
        message: {
          editedMessage: {
            message: {
              protocolMessage: {
                type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
                key: { remoteJid: pnJid, fromMe: false, id: "R1" },
                editedMessage: { conversation: "respondendo (editado)" },
              },
            },
          },
        },
      },
      {
        key: { remoteJid: pnJid, fromMe: false, id: "REVOKE-ENVELOPE" },
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: pnJid, fromMe: false, id: "L1" } } },
      },
    ]);
    expect(await messageRow(wa, "R1")).toMatchObject({ body: "respondendo (editado)", is_edited: true });
    expect(await messageRow(wa, "L1")).toMatchObject({ is_deleted: true });
    expect(await messageRow(wa, "EDIT-ENVELOPE")).toBeNull();
    expect(await messageRow(wa, "REVOKE-ENVELOPE")).toBeNull();
    const updates = emitted.filter((e) => e.channel === `company-${t.companyId}-appMessage`);
    expect(updates.length).toBe(2);

    // The library's messages.update form of the same edit is idempotent.
    emitted.length = 0;
    await emitAndSettle(wa, "messages.update", [
      { key: { remoteJid: pnJid, fromMe: false, id: "R1" }, update: { message: { editedMessage: { message: { conversation: "respondendo (editado)" } } } } },
    ]);
    expect(emitted.filter((e) => e.channel === `company-${t.companyId}-appMessage`)).toHaveLength(0);
  });

  it("group messages: the contact is the group, marked isGroup", async () => {
    const gjid = "120363000000000001@g.us";
    await upsert(wa, [
      {
        key: { remoteJid: gjid, participant: "100000000000099@lid", participantAlt: "5511955556666@s.whatsapp.net", fromMe: false, id: "G1" },
        pushName: "Pedro",
        message: { conversation: "bom dia grupo" },
      },
    ]);
    const m = (await messageRow(wa, "G1"))!;
    expect(await contactsWith("120363000000000001")).toEqual([expect.objectContaining({ name: "Grupo da Família", is_group: true })]);
    const ticket = await app.sql.one<{ is_group: boolean }>("SELECT is_group FROM tickets WHERE id = $1", [m.ticket_id]);
    expect(ticket.is_group).toBe(true);
    expect(await contactsWith("5511955556666")).toEqual([]);
  });

  it("ignores reactions and status broadcasts", async () => {
    const before = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE whatsapp_id = $1", [wa]);
    await upsert(wa, [
      { key: { remoteJid: pnJid, fromMe: false, id: "RX1" }, message: { reactionMessage: { text: "👍", key: { id: "T1" } } } },
      { key: { remoteJid: "status@broadcast", participant: pnJid, fromMe: false, id: "ST1" }, message: { conversation: "status" } },
    ]);
    const after = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE whatsapp_id = $1", [wa]);
    expect(after.n).toBe(before.n);
  });

  it("a message typed on the connection's phone is stored as outgoing in the contact's ticket, unrouted", async () => {
    const t1 = (await messageRow(wa, "T1"))!;
    const sentBefore = last().sent.length;
    await upsert(wa, [{ key: { remoteJid: "100000000000001@lid", remoteJidAlt: pnJid, fromMe: true, id: "PHONE1" }, pushName: "Loja", message: { conversation: "digitado no celular" } }], "append");
    expect(await messageRow(wa, "PHONE1")).toMatchObject({ from_me: true, body: "digitado no celular", contact_id: t1.contact_id, ticket_id: t1.ticket_id });
    expect((await contactsWith(customer))[0]!.name).toBe("Maria");
    expect(last().sent.length).toBe(sentBefore);
  });

  it("an agent's message is sent once, stored once (the echo is not a second row), and acks move it forward only", async () => {
    const ticketId = (await messageRow(wa, "T1"))!.ticket_id;
    expect((await app.api("PUT", `/api/tickets/${ticketId}`, { token: t.admin.token, body: { action: "accept" } })).statusCode).toBe(200);
    const sock = last();
    const sentBefore = sock.sent.length;
    const res = await app.api("POST", `/api/messages/${ticketId}`, { token: t.admin.token, body: { body: "Bom dia!", sign: false, quotedMsg: { id: (await messageRow(wa, "T1"))!.id } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(sock.sent.length).toBe(sentBefore + 1);
    const out = sock.sent.at(-1)!;
    expect(out.jid).toBe(pnJid);
    expect(out.content).toEqual({ text: "Bom dia!" });
    expect(out.options?.quoted?.key.id).toBe("T1");
    const providerId = out.options!.messageId!;
    await driverOf(wa).idle();
    await new Promise((r) => setTimeout(r, 20));
    await driverOf(wa).idle();
    const rows = await app.sql.many<{ from_me: boolean; ack: number; user_id: number }>(
      "SELECT from_me, ack, user_id FROM messages WHERE whatsapp_id = $1 AND provider_id = $2",
      [wa, providerId],
    );
    expect(rows).toEqual([{ from_me: true, ack: 1, user_id: t.admin.id }]);

    const key = { remoteJid: pnJid, fromMe: true, id: providerId };
    await emitAndSettle(wa, "messages.update", [{ key, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } }]);
    expect((await messageRow(wa, providerId))!.ack).toBe(3);
    await emitAndSettle(wa, "messages.update", [{ key, update: { status: proto.WebMessageInfo.Status.SERVER_ACK } }]);
    expect((await messageRow(wa, providerId))!.ack).toBe(3);
    await emitAndSettle(wa, "messages.update", [{ key, update: { status: proto.WebMessageInfo.Status.READ } }]);
    expect((await messageRow(wa, providerId))!.ack).toBe(4);

    // getMessage (retry requests) finds the sent message, also from PostgreSQL alone.
    const fresh = new MessageStore(app.sql, t.companyId, wa);
    expect((await fresh.getMessage(key))?.conversation).toBe("Bom dia!");
    expect((await last().input.getMessage(key))?.conversation).toBe("Bom dia!");
  });

  it("media, deletion and read receipts go out through the socket", async () => {
    const ticketId = (await messageRow(wa, "T1"))!.ticket_id;
    const sock = last();
    const driver = driverOf(wa);
    const sent = await driver.sendMedia(customer, { data: Buffer.from("x"), fileName: "a.pdf", mimetype: "application/pdf", mediaType: "application", caption: "doc" });
    expect(sock.sent.at(-1)!.content).toMatchObject({ document: Buffer.from("x"), fileName: "a.pdf", mimetype: "application/pdf", caption: "doc" });
    await driver.sendMedia(customer, { data: Buffer.from("o"), fileName: "v.ogg", mimetype: "audio/ogg; codecs=opus", mediaType: "audio" });
    expect(sock.sent.at(-1)!.content).toMatchObject({ ptt: true });
    await driver.deleteMessage(customer, sent.providerId);
    expect(sock.sent.at(-1)!.content).toEqual({ delete: { remoteJid: pnJid, fromMe: true, id: sent.providerId } });
    await driver.markRead(customer);
    expect(sock.read.at(-1)!.map((k) => k.id)).toContain("T1");
    expect(await driver.checkNumber("5511912340000")).toBeNull();
    expect(await driver.checkNumber("5511912341111")).toBe("5511912341111");
    expect(ticketId).toBeGreaterThan(0);
  });

  it("the external API checks the number with WhatsApp and sends through the socket", async () => {
    const generated = await app.api("POST", `/api/whatsapp/${wa}/token`, { token: t.admin.token });
    expect(generated.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${generated.json().token}` };
    const sock = last();
    const count = sock.sent.length;
    const bad = await app.api("POST", "/api/messages/send", { headers, body: { number: "5511912340000", body: "oi" } });
    expect(bad.json().error).toBe("ERR_WAPP_INVALID_CONTACT");
    expect(sock.sent.length).toBe(count);
    const ok = await app.api("POST", "/api/messages/send", { headers, body: { number: "5511912345555", body: "Pedido confirmado" } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(sock.sent.at(-1)).toMatchObject({ jid: "5511912345555@s.whatsapp.net", content: { text: "Pedido confirmado" } });
    await new Promise((r) => setTimeout(r, 20));
    await driverOf(wa).idle();
    const providerId = sock.sent.at(-1)!.options!.messageId!;
    expect(await app.sql.many("SELECT id FROM messages WHERE whatsapp_id = $1 AND provider_id = $2", [wa, providerId])).toHaveLength(1);

    // A send that fails leaves no empty ticket behind.
    const failed = await app.api("POST", "/api/messages/send", { headers, body: { number: "5511912349999", body: "oi" } });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe("ERR_SENDING_WAPP_MSG");
    const tickets = await app.sql.many("SELECT t.id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE c.company_id = $1 AND c.number = $2", [
      t.companyId,
      "5511912349999",
    ]);
    expect(tickets).toEqual([]);
  });
});

describe("PostgreSQL auth state", () => {
  it("creds with Buffers survive a round trip; keys set/get/delete in batches; clear removes all", async () => {
    const { usePgAuthState } = await import("./auth-state.js");
    const res = await app.api("POST", "/api/whatsapp", { token: t.admin.token, body: { name: "Auth", provider: "sandbox" } });
    const id = res.json().id as number;
    const a = await usePgAuthState(app.sql, app.ctx.secrets, t.companyId, id);
    expect(Buffer.isBuffer(a.state.creds.noiseKey.private)).toBe(true);
    a.state.creds.me = { id: "5511900000000:1@s.whatsapp.net" };
    await a.saveCreds();
    const b = await usePgAuthState(app.sql, app.ctx.secrets, t.companyId, id);
    // stored sealed for this connection and key: no key material in the clear
    const stored = await app.sql.one<{ value: string }>("SELECT value FROM baileys_auth WHERE whatsapp_id = $1 AND key = 'creds'", [id]);
    expect(stored.value).toMatch(/^v2:test:/);
    expect(stored.value).not.toContain("noiseKey");
    expect(Buffer.isBuffer(b.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.compare(b.state.creds.noiseKey.private, a.state.creds.noiseKey.private)).toBe(0);
    expect(Buffer.compare(b.state.creds.signedIdentityKey.public, a.state.creds.signedIdentityKey.public)).toBe(0);
    expect(b.state.creds.me?.id).toBe("5511900000000:1@s.whatsapp.net");
    expect(b.state.creds.registrationId).toBe(a.state.creds.registrationId);

    const pair = { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5, 6]) };
    await b.state.keys.set({
      "pre-key": { "1": pair, "2": pair },
      session: { "5511:1": new Uint8Array([9, 8, 7]) },
      "app-state-sync-key": { AAA: { keyData: new Uint8Array([5, 5]), timestamp: 10 } },
    });
    const pre = await b.state.keys.get("pre-key", ["1", "2", "3"]);
    expect(Object.keys(pre).sort()).toEqual(["1", "2"]);
    expect(Buffer.compare(Buffer.from(pre["1"]!.private), pair.private)).toBe(0);
    const session = await b.state.keys.get("session", ["5511:1"]);
    expect([...session["5511:1"]!]).toEqual([9, 8, 7]);
    const sync = await b.state.keys.get("app-state-sync-key", ["AAA"]);
    expect(sync.AAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect([...sync.AAA!.keyData!]).toEqual([5, 5]);

    await b.state.keys.set({ "pre-key": { "1": null } });
    expect(Object.keys(await b.state.keys.get("pre-key", ["1", "2"]))).toEqual(["2"]);
    await b.clear();
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM baileys_auth WHERE whatsapp_id = $1", [id])).n).toBe(0);
  });
});
