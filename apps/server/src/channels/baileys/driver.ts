import {
  DisconnectReason,
  generateMessageIDV2,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  jidNormalizedUser,
  proto,
  type AnyMessageContent,
  type BaileysEventMap,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
} from "baileys";
import type { AppContext } from "../../core/context.js";
import type { DriverEvents, InboundMessage, OutgoingMedia, SendOptions, SentMessage, WhatsappDriver } from "../driver.js";
import { clearAuth, storedPnForLid, usePgAuthState, type PgAuthState } from "./auth-state.js";
import type { LeaseFence } from "../ownership.js";
import { alternatePn, isLidUser, jidFor, pnDigits, userOf } from "./jid.js";
import { renameLidContact } from "./lid-contacts.js";
import { MessageStore } from "./message-store.js";
import { ackOf, parseMessage, textOf } from "./parse.js";
import { baileysLogger, defaultDownloader, defaultSocketFactory, type BaileysSocket, type ILogger, type MediaDownloader, type SocketFactory } from "./socket.js";

export interface BaileysDriverOptions {
  socketFactory?: SocketFactory;
  download?: MediaDownloader;
  /** Reconnect delays: base * 2^attempt, at most max (defaults 1 s and 60 s). */
  backoff?: { baseMs: number; maxMs: number };
  logger?: ILogger;
}

export interface BaileysDriverInput {
  companyId: number;
  whatsappId: number;
  events: DriverEvents;
  resume: boolean;
  /** Pair by code with this phone number (digits) instead of showing a QR code. */
  pairingNumber?: string;
  /** The lease the driver runs under: the device's keys are written only while it is current. */
  fence?: LeaseFence;
}

type State = "idle" | "connecting" | "qrcode" | "pairing" | "open" | "stopped";

const OWN_IDS_CAP = 2000;
const UNREAD_CAP = 100;

/** Close codes after which retrying is pointless until someone acts (new pairing, other session gone). */
const FINAL_CODES = new Set<number>([DisconnectReason.loggedOut, DisconnectReason.connectionReplaced, DisconnectReason.forbidden]);

function closeCode(update: Partial<BaileysEventMap["connection.update"]>): number | undefined {
  const err = update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined;
  return err?.output?.statusCode;
}

/**
 * A WhatsApp connection through Baileys (WhatsApp Web multi-device). The pairing lives in
 * PostgreSQL, so a restart resumes without a QR code. Socket events are handled one at a time, in
 * order: connection updates become session statuses, received messages go to the inbound pipeline
 * (contacts by phone number, even when WhatsApp names the sender by a LID), edits/revokes/acks update
 * stored messages. Messages this driver sent are recognised when WhatsApp echoes them back.
 */
export class BaileysDriver implements WhatsappDriver {
  readonly companyId: number;
  readonly whatsappId: number;
  readonly fence?: LeaseFence;
  private readonly events: DriverEvents;
  private readonly resume: boolean;
  private pairingNumber?: string;
  /** The socket generation a pairing code was requested for (one code per socket). */
  private pairingGen = -1;
  private readonly factory: SocketFactory;
  private readonly download: MediaDownloader;
  private readonly backoff: { baseMs: number; maxMs: number };
  private readonly logger: ILogger;
  private readonly store: MessageStore;

  private sock?: BaileysSocket;
  private auth?: PgAuthState;
  private state: State = "idle";
  private generation = 0;
  private attempts = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly ownIds = new Set<string>();
  private readonly unread = new Map<string, WAMessageKey[]>();
  private readonly groups = new Map<string, string>();
  private readonly groupNames = new Map<string, string>();
  private readonly seenCalls = new Set<string>();

  constructor(
    private readonly ctx: AppContext,
    input: BaileysDriverInput,
    options: BaileysDriverOptions = {},
  ) {
    this.companyId = input.companyId;
    this.whatsappId = input.whatsappId;
    this.events = input.events;
    this.resume = input.resume;
    this.pairingNumber = input.pairingNumber;
    this.fence = input.fence;
    this.factory = options.socketFactory ?? defaultSocketFactory;
    this.download = options.download ?? defaultDownloader;
    this.backoff = options.backoff ?? { baseMs: 1000, maxMs: 60_000 };
    const level = ctx.config.env === "test" || ctx.config.logLevel === "silent" ? "silent" : "warn";
    this.logger = (options.logger ?? baileysLogger(ctx.log, level)).child({ driver: "baileys", whatsappId: input.whatsappId });
    this.store = new MessageStore(ctx.sql, input.companyId, input.whatsappId);
  }

  /** Session state, for tests and diagnostics. */
  get status(): State {
    return this.state;
  }

  get socket(): BaileysSocket | undefined {
    return this.sock;
  }

  async connect(): Promise<void> {
    this.clearTimer();
    this.attempts = 0;
    // A resumed session keeps its CONNECTED status while the socket opens (a crash now still resumes).
    if (!this.resume) await this.events.status("OPENING");
    await this.open();
  }

  async disconnect(): Promise<void> {
    const sock = this.sock;
    this.halt();
    if (sock) {
      try {
        await sock.logout();
      } catch (err) {
        // the session is forgotten below either way; WhatsApp drops an unused pairing on its side
        this.logger.warn({ err }, "logout failed; closing the socket instead");
        await Promise.resolve(sock.end(undefined)).catch((endErr: unknown) => this.logger.warn({ err: endErr }, "closing the socket failed"));
      }
    }
    await this.forgetPairing();
    await this.events.status("DISCONNECTED");
  }

  async stop(): Promise<void> {
    const sock = this.sock;
    this.halt();
    if (sock) await Promise.resolve(sock.end(undefined)).catch((err: unknown) => this.logger.warn({ err }, "closing the socket failed"));
  }

  private halt(): void {
    this.state = "stopped";
    this.generation++;
    this.clearTimer();
    this.sock = undefined;
  }

  private clearTimer(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
  }

  private async forgetPairing(): Promise<void> {
    const auth = this.auth;
    this.auth = undefined;
    // Through the auth state's write queue, so a credentials save still in flight cannot outlive the clear.
    if (auth) await auth.clear();
    else await clearAuth(this.ctx.sql, this.companyId, this.whatsappId);
    await this.store.clear();
    this.unread.clear();
  }

  /** Runs socket events one after the other; a failing handler is logged and the next one runs. */
  private enqueue(gen: number, label: string, fn: () => Promise<unknown>): void {
    this.queue = this.queue.then(async () => {
      if (gen !== this.generation) return; // an event of a socket that has been replaced
      try {
        await fn();
      } catch (err) {
        this.logger.error({ err, event: label }, "baileys event handler failed");
      }
    });
  }

  /** Resolves when every event received so far has been handled (tests). */
  async idle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  private async open(): Promise<void> {
    const gen = ++this.generation;
    this.state = "connecting";
    // Reconnections reuse the credentials in memory (a save may still be in flight); a first start reads them.
    this.auth ??= await usePgAuthState(this.ctx.sql, this.ctx.secrets, this.companyId, this.whatsappId, this.fence);
    if (gen !== this.generation) return;
    const auth = this.auth;
    const sock = this.factory({ auth: auth.state, getMessage: (key) => this.store.getMessage(key), logger: this.logger });
    this.sock = sock;
    sock.ev.on("creds.update", () => {
      if (gen === this.generation) auth.saveCreds().catch((err: unknown) => this.logger.error({ err }, "saving creds failed"));
    });
    sock.ev.on("connection.update", (u) => this.enqueue(gen, "connection.update", () => this.onConnectionUpdate(gen, u)));
    sock.ev.on("messages.upsert", (u) => this.enqueue(gen, "messages.upsert", () => this.onUpsert(u)));
    sock.ev.on("messages.update", (u) => this.enqueue(gen, "messages.update", () => this.onUpdate(u)));
    sock.ev.on("call", (calls) => this.enqueue(gen, "call", () => this.onCalls(calls)));
    sock.ev.on("lid-mapping.update", (m) => this.enqueue(gen, "lid-mapping.update", () => this.onLidMapping(m)));
  }

  private scheduleReconnect(delayMs: number): void {
    this.clearTimer();
    const gen = this.generation;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (gen !== this.generation || this.state === "stopped") return;
      this.open().catch((err: unknown) => {
        this.logger.error({ err }, "reconnect failed");
        this.scheduleReconnect(this.nextDelay());
      });
    }, delayMs);
    this.reconnectTimer.unref?.();
  }

  /** 1 s, 2 s, 4 s ... capped at 60 s. */
  private nextDelay(): number {
    const delay = Math.min(this.backoff.baseMs * 2 ** this.attempts, this.backoff.maxMs);
    this.attempts++;
    return delay;
  }

  private async onConnectionUpdate(gen: number, u: Partial<BaileysEventMap["connection.update"]>): Promise<void> {
    if (u.qr && !(await this.requestPairingCode(gen))) {
      this.state = "qrcode";
      await this.events.qr(u.qr);
    }
    if (u.connection === "open") {
      this.state = "open";
      this.attempts = 0;
      this.pairingNumber = undefined;
      const me = this.auth?.state.creds.me?.id ?? this.sock?.user?.id;
      const number = pnDigits(me ? jidNormalizedUser(me) : undefined) ?? undefined;
      await this.events.status("CONNECTED", number ? { number } : undefined);
      void this.store.prune().catch((err: unknown) => this.logger.warn({ err }, "pruning stored messages failed; the next connection tries again"));
      return;
    }
    if (u.connection !== "close" || gen !== this.generation) return;

    const code = closeCode(u);
    const wasShowingCode = this.state === "qrcode" || this.state === "pairing";
    this.sock = undefined;
    if (code === DisconnectReason.loggedOut) {
      // The phone removed this device (or the pairing was refused): forget it; the next start shows a QR.
      this.state = "idle";
      this.generation++;
      await this.forgetPairing();
      await this.events.status("DISCONNECTED");
      return;
    }
    if (code !== undefined && FINAL_CODES.has(code)) {
      this.state = "idle";
      this.generation++;
      await this.events.status("DISCONNECTED");
      return;
    }
    if (wasShowingCode && code === DisconnectReason.timedOut) {
      // Every QR code of this attempt expired unscanned.
      this.state = "idle";
      this.generation++;
      await this.events.status("TIMEOUT");
      return;
    }
    if (code === DisconnectReason.restartRequired) {
      // Normal right after pairing: WhatsApp asks for a fresh connection with the new credentials.
      this.state = "connecting";
      this.scheduleReconnect(0);
      return;
    }
    const wasOpen = this.state === "open";
    this.state = "connecting";
    if (wasOpen || !wasShowingCode) await this.events.status("OPENING");
    this.scheduleReconnect(this.nextDelay());
  }

  /**
   * Pairing by phone number: when the socket is ready to pair (its first QR), asks WhatsApp for the
   * code to type on the phone (WhatsApp > Aparelhos conectados > Conectar com número de telefone) and
   * reports PAIRING with it; later QR refreshes of the same socket keep that code. False when this
   * session pairs by QR code (or the request failed: the QR code is shown instead).
   */
  private async requestPairingCode(gen: number): Promise<boolean> {
    const sock = this.sock;
    if (!this.pairingNumber || !sock?.requestPairingCode || this.auth?.state.creds.registered) return false;
    if (this.pairingGen === gen) return true;
    this.pairingGen = gen;
    try {
      const code = await sock.requestPairingCode(this.pairingNumber);
      if (gen !== this.generation) return true;
      this.state = "pairing";
      await this.events.status("PAIRING", { pairingCode: code });
      return true;
    } catch (err) {
      this.logger.error({ err }, "pairing code request failed");
      this.pairingNumber = undefined;
      return false;
    }
  }

  // ----- inbound -----

  private async onUpsert({ messages, type }: BaileysEventMap["messages.upsert"]): Promise<void> {
    if (type !== "notify" && type !== "append") return;
    for (const msg of messages) {
      try {
        await this.handleMessage(msg);
      } catch (err) {
        this.logger.error({ err, id: msg.key.id }, "inbound message failed");
      }
    }
  }

  private async handleMessage(msg: WAMessage): Promise<void> {
    const jid = msg.key.remoteJid;
    const id = msg.key.id;
    if (!jid || !id || isJidBroadcast(jid) || isJidNewsletter(jid)) return;
    if (msg.key.fromMe && this.ownIds.has(id)) return; // the echo of a message this driver sent (already stored)

    const parsed = parseMessage(msg);
    if (parsed.kind === "ignore") return;
    if (parsed.kind === "edit") {
      await this.events.edit?.(parsed.targetId, parsed.body);
      return;
    }
    if (parsed.kind === "revoke") {
      await this.events.revoke?.(parsed.targetId);
      return;
    }
    const isGroup = Boolean(isJidGroup(jid));
    const from = isGroup ? userOf(jid) : await this.numberOf(msg.key);
    if (!from) return;
    if (isGroup) this.groups.set(from, jid);
    await this.store.save(msg).catch((err: unknown) => this.logger.warn({ err }, "message store failed"));

    let media: InboundMessage["media"];
    if (parsed.media) {
      try {
        const data = await this.download(msg, this.sock!, this.logger);
        media = { data, fileName: parsed.media.fileName, mimetype: parsed.media.mimetype };
      } catch (err) {
        this.logger.warn({ err, id }, "media download failed");
      }
    }
    // fromMe here: typed on the connection's own phone; recorded as outgoing, the contact's name untouched.
    const fromMe = Boolean(msg.key.fromMe);
    const pushName = isGroup ? await this.groupName(jid, from) : fromMe ? "" : (msg.pushName ?? "").trim() || from;
    if (!fromMe) this.rememberUnread(from, msg.key);
    const ts = Number(msg.messageTimestamp ?? 0);
    await this.events.message({
      providerId: id,
      from,
      pushName,
      body: parsed.body,
      mediaType: parsed.mediaType,
      media,
      quotedProviderId: parsed.quotedProviderId,
      isGroup,
      timestamp: ts > 0 ? new Date(ts * 1000) : undefined,
      ...(fromMe ? { fromMe } : {}),
    });
  }

  /**
   * The contact's phone number. WhatsApp may name a chat by a LID (an opaque id) instead of the
   * number; the key then carries the number (remoteJidAlt / senderPn), or the library has stored the
   * mapping. Only when nothing maps the LID is its id used, and renamed once a mapping arrives.
   */
  private async numberOf(key: WAMessageKey): Promise<string | null> {
    const jid = key.remoteJid ?? "";
    const pn = pnDigits(jid);
    if (pn) return pn;
    if (!isLidUser(jid)) return null;
    const alt = alternatePn(key);
    if (alt) return alt;
    const lid = userOf(jid);
    if (!lid) return null;
    const stored = await storedPnForLid(this.ctx.sql, this.ctx.secrets, this.companyId, this.whatsappId, lid);
    if (stored) return stored;
    this.logger.warn({ lid }, "no phone number known for LID; using the LID until a mapping arrives");
    return lid;
  }

  private async groupName(jid: string, fallback: string): Promise<string> {
    const known = this.groupNames.get(jid);
    if (known) return known;
    try {
      const meta = await this.sock?.groupMetadata?.(jid);
      if (meta?.subject) {
        this.groupNames.set(jid, meta.subject);
        return meta.subject;
      }
    } catch (err) {
      this.logger.warn({ err, jid }, "group metadata failed");
    }
    return fallback;
  }

  /** Keys of received messages not yet marked read, by contact number. */
  private rememberUnread(number: string, key: WAMessageKey): void {
    const list = this.unread.get(number) ?? [];
    list.push(key);
    if (list.length > UNREAD_CAP) list.splice(0, list.length - UNREAD_CAP);
    this.unread.set(number, list);
  }

  private async onUpdate(updates: BaileysEventMap["messages.update"]): Promise<void> {
    for (const { key, update } of updates) {
      const id = key.id;
      if (!id) continue;
      const ack = ackOf(update.status);
      if (ack !== null && key.fromMe) await this.events.ack(id, ack);
      const edited = update.message?.editedMessage?.message;
      if (edited) {
        const body = textOf(edited.protocolMessage?.editedMessage ?? edited);
        if (body !== null) await this.events.edit?.(id, body);
      }
      if (update.message === null && update.messageStubType === proto.WebMessageInfo.StubType.REVOKE) await this.events.revoke?.(id);
    }
  }

  private async onCalls(calls: WACallEvent[]): Promise<void> {
    for (const call of calls) {
      if (call.status !== "offer" || this.seenCalls.has(call.id)) continue;
      this.seenCalls.add(call.id);
      if (this.seenCalls.size > 500) this.seenCalls.delete(this.seenCalls.values().next().value!);
      const isGroup = Boolean(call.isGroup && call.groupJid);
      const from = isGroup
        ? userOf(call.groupJid)
        : (pnDigits(call.from) ?? pnDigits(call.callerPn) ?? (await this.numberOf({ remoteJid: call.from, remoteJidAlt: call.callerPn })));
      if (!from) continue;
      const when = call.date instanceof Date ? call.date : new Date();
      const hhmm = when.toLocaleTimeString("pt-BR", { hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" });
      await this.events.message({
        providerId: `CALL-${call.id}`,
        from,
        pushName: isGroup ? await this.groupName(call.groupJid!, from) : from,
        body: `${call.isVideo ? "Chamada de vídeo" : "Chamada de voz"} recebida às ${hhmm}`,
        mediaType: "call_log",
        isGroup,
        timestamp: when,
      });
    }
  }

  private async onLidMapping(m: BaileysEventMap["lid-mapping.update"]): Promise<void> {
    const lid = userOf(m.lid);
    const pn = pnDigits(m.pn);
    if (lid && pn) await renameLidContact(this.ctx.sql, this.companyId, lid, pn);
  }

  // ----- outbound -----

  private requireOpen(): BaileysSocket {
    if (!this.sock || this.state !== "open") throw new Error("WhatsApp session is not connected");
    return this.sock;
  }

  private knownGroups(): ReadonlySet<string> {
    return new Set(this.groups.keys());
  }

  private async quoted(jid: string, providerId: string): Promise<WAMessage> {
    const stored = await this.store.get(providerId);
    if (stored) return { key: stored.key, message: stored.message };
    return { key: { remoteJid: jid, id: providerId, fromMe: false }, message: { conversation: "" } };
  }

  private async send(to: string, content: AnyMessageContent, opts?: SendOptions): Promise<SentMessage> {
    const sock = this.requireOpen();
    const jid = jidFor(to, this.knownGroups());
    const messageId = generateMessageIDV2(sock.user?.id);
    this.ownIds.add(messageId);
    if (this.ownIds.size > OWN_IDS_CAP) this.ownIds.delete(this.ownIds.values().next().value!);
    const quoted = opts?.quotedProviderId ? await this.quoted(jid, opts.quotedProviderId) : undefined;
    const sent = await sock.sendMessage(jid, content, { messageId, ...(quoted ? { quoted } : {}) });
    const providerId = sent?.key.id ?? messageId;
    this.ownIds.add(providerId);
    if (sent) await this.store.save(sent).catch((err: unknown) => this.logger.warn({ err }, "message store failed"));
    return { providerId };
  }

  sendText(to: string, body: string, opts?: SendOptions): Promise<SentMessage> {
    return this.send(to, { text: body }, opts);
  }

  sendMedia(to: string, media: OutgoingMedia, opts?: SendOptions): Promise<SentMessage> {
    const caption = media.caption || undefined;
    let content: AnyMessageContent;
    switch (media.mediaType) {
      case "image":
        content = { image: media.data, caption, mimetype: media.mimetype };
        break;
      case "video":
        content = { video: media.data, caption, mimetype: media.mimetype };
        break;
      case "audio":
        // Voice notes must be Opus in OGG to play as such; other audio goes as an audio file.
        content = { audio: media.data, mimetype: media.mimetype, ptt: /ogg|opus/i.test(media.mimetype) };
        break;
      default:
        content = { document: media.data, mimetype: media.mimetype, fileName: media.fileName, caption };
    }
    return this.send(to, content, opts);
  }

  async deleteMessage(to: string, providerId: string): Promise<void> {
    const sock = this.requireOpen();
    const jid = jidFor(to, this.knownGroups());
    await sock.sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: providerId } });
  }

  async markRead(to: string): Promise<void> {
    const keys = this.unread.get(to) ?? [];
    this.unread.delete(to);
    if (!keys.length || !this.sock || this.state !== "open") return;
    await this.sock.readMessages(keys);
  }

  async checkNumber(number: string): Promise<string | null> {
    const sock = this.requireOpen();
    if (!sock.onWhatsApp) return number;
    const [result] = (await sock.onWhatsApp(number)) ?? [];
    if (!result?.exists) return null;
    return pnDigits(result.jid) ?? number;
  }
}
