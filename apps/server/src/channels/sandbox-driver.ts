import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { MediaType } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import type { DriverEvents, InboundMessage, OutgoingMedia, SendOptions, SentMessage, WhatsappDriver } from "./driver.js";

/** Ack steps of a message the sandbox "phone" received: sent (server) after 1 s, delivered after 2.5 s. */
export const SANDBOX_ACK_STEPS = [
  { ack: 2, afterMs: 1000 },
  { ack: 3, afterMs: 2500 },
] as const;
export const SANDBOX_READ_ACK = 4;

export const SANDBOX_ACK_JOB = "sandbox.ack";
export const sandboxAckPayload = z.object({
  companyId: z.number().int(),
  whatsappId: z.number().int(),
  providerId: z.string(),
  ack: z.number().int().min(1).max(5),
});

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
 * there and durable jobs move each message's ack to sent and delivered; the phone page (or the
 * customer replying) marks them read. A customer's message enters through `receive`, which hands it
 * to the same `events.message` a real driver uses.
 */
export class SandboxDriver implements WhatsappDriver {
  private state: "stopped" | "qrcode" | "connected" = "stopped";

  constructor(
    private readonly ctx: AppContext,
    readonly companyId: number,
    readonly whatsappId: number,
    private readonly events: DriverEvents,
    private readonly resume: boolean,
  ) {}

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
      return;
    }
    this.state = "qrcode";
    await this.events.qr(`SANDBOX-${this.whatsappId}-${randomBytes(12).toString("base64url")}`);
  }

  /** The phone page's "scan": pairs the session. */
  async scan(): Promise<void> {
    this.state = "connected";
    await this.events.status("CONNECTED", { number: this.phoneNumber });
  }

  async disconnect(): Promise<void> {
    this.state = "stopped";
    await this.events.status("DISCONNECTED");
  }

  async stop(): Promise<void> {
    this.state = "stopped";
  }

  private ensureConnected(): void {
    if (this.state !== "connected") throw new Error("sandbox session not connected");
  }

  private async store(to: string, body: string, mediaType: MediaType, mediaName: string | null): Promise<SentMessage> {
    this.ensureConnected();
    const providerId = newProviderId();
    await this.ctx.sql.exec(
      `INSERT INTO sandbox_messages (company_id, whatsapp_id, provider_id, direction, number, body, media_type, media_name, ack)
       VALUES ($1, $2, $3, 'outbound', $4, $5, $6, $7, 1)`,
      [this.companyId, this.whatsappId, providerId, to, body, mediaType, mediaName],
    );
    for (const step of SANDBOX_ACK_STEPS) {
      await this.ctx.jobs.send(
        SANDBOX_ACK_JOB,
        { companyId: this.companyId, whatsappId: this.whatsappId, providerId, ack: step.ack },
        { startAfter: Date.now() + step.afterMs },
      );
    }
    return { providerId };
  }

  async sendText(to: string, body: string, _opts?: SendOptions): Promise<SentMessage> {
    return this.store(to, body, "chat", null);
  }

  async sendMedia(to: string, media: OutgoingMedia, _opts?: SendOptions): Promise<SentMessage> {
    return this.store(to, media.caption ?? "", media.mediaType, media.fileName);
  }

  async deleteMessage(_to: string, providerId: string): Promise<void> {
    await this.ctx.sql.exec(
      "UPDATE sandbox_messages SET is_deleted = true WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3",
      [this.companyId, this.whatsappId, providerId],
    );
  }

  async markRead(to: string): Promise<void> {
    await this.ctx.sql.exec(
      `UPDATE sandbox_messages SET ack = 4
        WHERE company_id = $1 AND whatsapp_id = $2 AND number = $3 AND direction = 'inbound' AND ack < 4`,
      [this.companyId, this.whatsappId, to],
    );
  }

  /** The customer opened the chat (phone page) or replied: every agent message so far is read. */
  async phoneRead(number?: string): Promise<number> {
    const rows = await this.ctx.sql.many<{ provider_id: string }>(
      `UPDATE sandbox_messages SET ack = $4
        WHERE company_id = $1 AND whatsapp_id = $2 AND direction = 'outbound' AND ack < $4
          AND ($3::text IS NULL OR number = $3)
        RETURNING provider_id`,
      [this.companyId, this.whatsappId, number ?? null, SANDBOX_READ_ACK],
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
    this.inbox = run.catch(() => undefined);
    return run;
  }

  private inbox: Promise<unknown> = Promise.resolve();

  private async deliver(input: SandboxInbound): Promise<unknown> {
    const providerId = newProviderId();
    const mediaType = input.mediaType ?? (input.media ? "application" : "chat");
    await this.ctx.sql.exec(
      `INSERT INTO sandbox_messages (company_id, whatsapp_id, provider_id, direction, number, body, media_type, media_name, ack)
       VALUES ($1, $2, $3, 'inbound', $4, $5, $6, $7, 2)`,
      [this.companyId, this.whatsappId, providerId, input.number, input.body, mediaType, input.media?.fileName ?? null],
    );
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
