import { randomBytes } from "node:crypto";
import type { MediaType } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import type { DriverEvents, InboundMessage, OutgoingMedia, SendOptions, SentMessage, WhatsappDriver } from "./driver.js";
import { reportedToCaller } from "../core/ignore.js";
import { fenceCondition, LeaseLostError, type LeaseFence } from "./ownership.js";

/** Ack steps of a message the sandbox "phone" received: sent (server) after 1 s, delivered after 2.5 s. */
export const SANDBOX_ACK_STEPS = [
  { ack: 2, afterMs: 1000 },
  { ack: 3, afterMs: 2500 },
] as const;
export const SANDBOX_READ_ACK = 4;

const newProviderId = () => `SB${randomBytes(10).toString("hex").toUpperCase()}`;

export interface SandboxInbound {
  number: string;
  name: string;
  body: string;
  mediaType?: MediaType;
  media?: { data: Buffer; fileName: string; mimetype: string };
  quotedProviderId?: string;
}

/**
 * A WhatsApp connection without a phone: the "phone" is the sandbox_messages table. Sending writes
 * there and timers move each message's ack to sent and delivered; the phone page (or the customer
 * replying) marks them read. The acks' state lives in the table, so a restarted driver picks up
 * the steps still due (timers, not polled jobs: thousands of acks a minute cost nothing). A customer's message enters through `receive`, which hands it
 * to the same `events.message` a real driver uses.
 */
export class SandboxDriver implements WhatsappDriver {
  private state: "stopped" | "qrcode" | "connected" = "stopped";
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly ctx: AppContext,
    readonly companyId: number,
    readonly whatsappId: number,
    private readonly events: DriverEvents,
    private readonly resume: boolean,
    /** Without a fence (a driver built outside the channel manager) its writes are not fenced. */
    readonly fence?: LeaseFence,
  ) {}

  /**
   * The "phone" is this driver's connection state: every write on sandbox_messages carries the fence
   * (`$f` and `$f+1`: the connection and the epoch), so a driver whose lease was taken over writes
   * nothing — a send it attempts fails with LeaseLostError and is never on the phone.
   */
  private fenceParams(at: number): { cond: string; params: unknown[] } {
    if (!this.fence) return { cond: "true", params: [] };
    return { cond: fenceCondition(`$${at}`, `$${at + 1}`), params: [this.fence.whatsappId, this.fence.epoch] };
  }

  get phoneNumber(): string {
    return `5500000${String(this.whatsappId).padStart(6, "0")}`;
  }

  get connected(): boolean {
    return this.state === "connected";
  }

  async connect(): Promise<void> {
    if (this.resume) {
      this.state = "connected";
      await this.events.status("CONNECTED", { number: this.phoneNumber });
      await this.resumeAcks();
      return;
    }
    this.state = "qrcode";
    await this.events.qr(`SANDBOX-${this.whatsappId}-${randomBytes(12).toString("base64url")}`);
  }

  /** The phone page's "scan": pairs the session. */
  async scan(): Promise<void> {
    this.state = "connected";
    await this.events.status("CONNECTED", { number: this.phoneNumber });
    await this.resumeAcks();
  }

  async disconnect(): Promise<void> {
    this.clearTimers();
    this.state = "stopped";
    await this.events.status("DISCONNECTED");
  }

  async stop(): Promise<void> {
    this.clearTimers();
    this.state = "stopped";
  }

  private clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private schedule(providerId: string, ack: number, afterMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.advance(providerId, ack).catch((err: unknown) =>
        this.ctx.log.warn({ err, whatsappId: this.whatsappId, providerId, ack }, "sandbox ack not recorded"),
      );
    }, afterMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Moves an outbound message's ack forward (never back) and reports it. */
  private async advance(providerId: string, ack: number): Promise<void> {
    if (this.state !== "connected") return;
    const f = this.fenceParams(5);
    const moved = await this.ctx.sql.maybe(
      `UPDATE sandbox_messages SET ack = $4
        WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3 AND direction = 'outbound' AND ack < $4 AND ${f.cond} RETURNING id`,
      [this.companyId, this.whatsappId, providerId, ack, ...f.params],
    );
    if (moved) await this.events.ack(providerId, ack);
  }

  /** After a (re)start: the ack steps still due for messages sent before. */
  private async resumeAcks(): Promise<void> {
    const last = SANDBOX_ACK_STEPS[SANDBOX_ACK_STEPS.length - 1]!.ack;
    const rows = await this.ctx.sql.many<{ provider_id: string; ack: number; age_ms: number }>(
      `SELECT provider_id, ack, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms FROM sandbox_messages
        WHERE company_id = $1 AND whatsapp_id = $2 AND direction = 'outbound' AND ack < $3`,
      [this.companyId, this.whatsappId, last],
    );
    for (const r of rows) {
      for (const step of SANDBOX_ACK_STEPS) {
        if (step.ack > r.ack) this.schedule(r.provider_id, step.ack, Math.max(0, step.afterMs - r.age_ms));
      }
    }
  }

  private ensureConnected(): void {
    if (this.state !== "connected") throw new Error("sandbox session not connected");
  }

  private async store(to: string, body: string, mediaType: MediaType, mediaName: string | null): Promise<SentMessage> {
    this.ensureConnected();
    const providerId = newProviderId();
    const f = this.fenceParams(8);
    const stored = await this.ctx.sql.exec(
      `INSERT INTO sandbox_messages (company_id, whatsapp_id, provider_id, direction, number, body, media_type, media_name, ack)
       SELECT $1, $2, $3, 'outbound', $4, $5, $6, $7, 1 WHERE ${f.cond}`,
      [this.companyId, this.whatsappId, providerId, to, body, mediaType, mediaName, ...f.params],
    );
    if (!stored) throw new LeaseLostError(this.fence!);
    for (const step of SANDBOX_ACK_STEPS) this.schedule(providerId, step.ack, step.afterMs);
    return { providerId };
  }

  async sendText(to: string, body: string, _opts?: SendOptions): Promise<SentMessage> {
    return this.store(to, body, "chat", null);
  }

  async sendMedia(to: string, media: OutgoingMedia, _opts?: SendOptions): Promise<SentMessage> {
    return this.store(to, media.caption ?? "", media.mediaType, media.fileName);
  }

  async deleteMessage(_to: string, providerId: string): Promise<void> {
    const f = this.fenceParams(4);
    await this.ctx.sql.exec(
      `UPDATE sandbox_messages SET is_deleted = true WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3 AND ${f.cond}`,
      [this.companyId, this.whatsappId, providerId, ...f.params],
    );
  }

  async markRead(to: string): Promise<void> {
    const f = this.fenceParams(4);
    await this.ctx.sql.exec(
      `UPDATE sandbox_messages SET ack = 4
        WHERE company_id = $1 AND whatsapp_id = $2 AND number = $3 AND direction = 'inbound' AND ack < 4 AND ${f.cond}`,
      [this.companyId, this.whatsappId, to, ...f.params],
    );
  }

  /** The customer opened the chat (phone page) or replied: every agent message so far is read. */
  async phoneRead(number?: string): Promise<number> {
    const f = this.fenceParams(5);
    const rows = await this.ctx.sql.many<{ provider_id: string }>(
      `UPDATE sandbox_messages SET ack = $4
        WHERE company_id = $1 AND whatsapp_id = $2 AND direction = 'outbound' AND ack < $4
          AND ($3::text IS NULL OR number = $3) AND ${f.cond}
        RETURNING provider_id`,
      [this.companyId, this.whatsappId, number ?? null, SANDBOX_READ_ACK, ...f.params],
    );
    for (const r of rows) await this.events.ack(r.provider_id, SANDBOX_READ_ACK);
    return rows.length;
  }

  /**
   * A customer's message: recorded on the phone, then delivered like any real inbound message.
   * Messages are handed on one at a time, in the order they reached the driver (a real socket
   * delivers them in order too).
   */
  receive(input: SandboxInbound): Promise<unknown> {
    this.ensureConnected();
    const run = this.inbox.then(() => this.deliver(input));
    this.inbox = run.catch(reportedToCaller);
    return run;
  }

  private inbox: Promise<unknown> = Promise.resolve();

  private async deliver(input: SandboxInbound): Promise<unknown> {
    const providerId = newProviderId();
    const mediaType = input.mediaType ?? (input.media ? "application" : "chat");
    const f = this.fenceParams(8);
    const stored = await this.ctx.sql.exec(
      `INSERT INTO sandbox_messages (company_id, whatsapp_id, provider_id, direction, number, body, media_type, media_name, ack)
       SELECT $1, $2, $3, 'inbound', $4, $5, $6, $7, 2 WHERE ${f.cond}`,
      [this.companyId, this.whatsappId, providerId, input.number, input.body, mediaType, input.media?.fileName ?? null, ...f.params],
    );
    // a driver whose lease was taken over no longer receives: the caller gets the error and may try again
    if (!stored) throw new LeaseLostError(this.fence!);
    await this.phoneRead(input.number);
    const message: InboundMessage = {
      providerId,
      from: input.number,
      pushName: input.name,
      body: input.body,
      mediaType,
      media: input.media,
      quotedProviderId: input.quotedProviderId,
    };
    return this.events.message(message);
  }
}
