import { isWhatsappUserId } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import * as officialRepo from "../../domains/official-whatsapp/repository.js";
import type { DriverEvents, OutgoingCheck, OutgoingMedia, SendOptions, SentMessage, TemplateMessage, WhatsappDriver } from "../driver.js";
import { GraphClient, GraphError, GraphUnavailable } from "./graph-client.js";
import { assertCloudLimits, cloudMediaType } from "./limits.js";
import { numberStateFromGraph } from "./number-state.js";
import { GRAPH_TOKEN_INVALID, mapGraphError, sessionExpired } from "./send-errors.js";
import type { LeaseFence } from "../ownership.js";

/** Meta's customer-service window: free-form messages only within 24 h of the contact's last message. */
export const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The checks made before a message is stored (a refused send leaves no row): Meta's limits of the
 * text or file, and the 24-hour window. Reads the database only, so a process that does not run the
 * connection (its message goes through the outbox) checks the same way.
 */
export async function cloudPrecheck(ctx: AppContext, companyId: number, whatsappId: number, to: string, outgoing?: OutgoingCheck): Promise<void> {
  if (outgoing) assertCloudLimits(outgoing);
  await ensureWindow(ctx, companyId, whatsappId, to);
}

/** Free-form messages need the contact's last message within 24 hours (checked before calling Meta). */
async function ensureWindow(ctx: AppContext, companyId: number, whatsappId: number, to: string): Promise<void> {
  const last = await officialRepo.lastInboundAt(ctx.sql, companyId, whatsappId, to);
  if (!last || Date.now() - last.getTime() > SESSION_WINDOW_MS) throw sessionExpired();
}

export type { TemplateMessage } from "../driver.js";

/**
 * A connection on the official WhatsApp Cloud API: sending is an HTTP call to the Graph API with the
 * business's token; receiving arrives through the business's webhook (domains/webhooks), not here.
 * Stateless between calls: the number and token are read for each send, so edits apply at once and
 * any server process can send.
 */
export class CloudApiDriver implements WhatsappDriver {
  constructor(
    private readonly ctx: AppContext,
    readonly companyId: number,
    readonly whatsappId: number,
    private readonly events: DriverEvents,
    private readonly resume: boolean,
    readonly fence?: LeaseFence,
  ) {}

  private async target(): Promise<{ client: GraphClient; phoneNumberId: string }> {
    const t = await officialRepo.findSendTarget(this.ctx.sql, this.ctx.secrets, this.companyId, this.whatsappId);
    if (!t) throw new AppError("ERR_WAPP_NOT_INITIALIZED", "Número oficial não encontrado");
    return { client: new GraphClient(this.ctx.config.whatsappGraphUrl, t.access_token), phoneNumberId: t.phone_number_id };
  }

  /** Verifies the number with the Graph API and reports CONNECTED; there is no QR code. */
  async connect(): Promise<void> {
    const { client, phoneNumberId } = await this.target();
    try {
      const phone = await client.phoneNumber(phoneNumberId);
      const state = numberStateFromGraph(phone);
      const row = await this.ctx.sql.maybe<{ id: number }>("SELECT id FROM official_numbers WHERE company_id = $1 AND whatsapp_id = $2", [
        this.companyId,
        this.whatsappId,
      ]);
      if (row) await officialRepo.updateNumberState(this.ctx.sql, this.companyId, row.id, state);
      await this.events.status("CONNECTED", { number: state.phone_number });
    } catch (err) {
      // A server start while Meta is unreachable keeps a connected number connected.
      if (err instanceof GraphUnavailable && this.resume) {
        await this.events.status("CONNECTED");
        return;
      }
      await this.events.status(tokenRefused(err) ? "REAUTH_REQUIRED" : "DISCONNECTED");
      throw new AppError("ERR_WAPP_NOT_INITIALIZED", `Graph API: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async disconnect(): Promise<void> {
    await this.events.status("DISCONNECTED");
  }

  async stop(): Promise<void> {
    // nothing held open
  }

  private ensureWindow(to: string): Promise<void> {
    return ensureWindow(this.ctx, this.companyId, this.whatsappId, to);
  }

  /** The channel layer checks Meta's limits and the window before storing a message (a refused send leaves no row). */
  precheck(to: string, outgoing?: OutgoingCheck): Promise<void> {
    return cloudPrecheck(this.ctx, this.companyId, this.whatsappId, to, outgoing);
  }

  private async send(to: string, payload: Record<string, unknown>, opts?: SendOptions): Promise<SentMessage> {
    const { client, phoneNumberId } = await this.target();
    try {
      // a contact known only by its business-scoped user id is addressed by it (`recipient`), others by number
      const sent = await client.sendMessage(phoneNumberId, {
        recipient_type: "individual",
        ...(isWhatsappUserId(to) ? { recipient: to } : { to }),
        ...payload,
        ...(opts?.quotedProviderId ? { context: { message_id: opts.quotedProviderId } } : {}),
      });
      return { providerId: sent.id, ...(sent.waId ? { waId: sent.waId } : {}) };
    } catch (err) {
      throw await this.refused(err);
    }
  }

  /**
   * The error a failed Graph call answers with (a RetryLaterError when another attempt may succeed,
   * else Meta's text); a refused token (190) also marks the connection
   * REAUTH_REQUIRED (shown on the connections pages) instead of leaving it CONNECTED: every send would
   * fail until the business gets a new token (saving it, then starting the connection again, brings it back).
   */
  private async refused(err: unknown): Promise<Error> {
    if (tokenRefused(err)) await this.events.status("REAUTH_REQUIRED");
    return mapGraphError(err);
  }

  async sendText(to: string, body: string, opts?: SendOptions): Promise<SentMessage> {
    await this.ensureWindow(to);
    return this.send(to, { type: "text", text: { body, preview_url: /https?:\/\//.test(body) } }, opts);
  }

  /** Uploads the file (POST /{phone-number-id}/media), then sends it by its media id. */
  async sendMedia(to: string, media: OutgoingMedia, opts?: SendOptions): Promise<SentMessage> {
    await this.ensureWindow(to);
    const { client, phoneNumberId } = await this.target();
    let mediaId: string;
    try {
      mediaId = await client.uploadMedia(phoneNumberId, { data: media.data, fileName: media.fileName, mimetype: media.mimetype });
    } catch (err) {
      throw await this.refused(err);
    }
    // the type Meta's media table gives the file (a WebP goes as a sticker); anything else as a document
    const type = cloudMediaType(media.mimetype) ?? "document";
    const object: Record<string, string> = { id: mediaId };
    if (media.caption && type !== "audio" && type !== "sticker") object.caption = media.caption;
    if (type === "document") object.filename = media.fileName;
    return this.send(to, { type, [type]: object }, opts);
  }

  /** Approved templates may be sent at any time (they open a new conversation). */
  async sendTemplate(to: string, template: TemplateMessage): Promise<SentMessage> {
    return this.send(to, {
      type: "template",
      template: { name: template.name, language: { code: template.language }, ...(template.components?.length ? { components: template.components } : {}) },
    });
  }

  async deleteMessage(): Promise<void> {
    throw new AppError("ERR_DELETE_WAPP_MSG", "A API oficial do WhatsApp não permite apagar mensagens enviadas");
  }

  /** Marks the contact's newest message read (Meta marks the earlier ones with it). */
  async markRead(to: string): Promise<void> {
    const last = await officialRepo.lastInboundProviderId(this.ctx.sql, this.companyId, this.whatsappId, to);
    if (!last) return;
    const { client, phoneNumberId } = await this.target();
    await client.markRead(phoneNumberId, last.provider_id);
  }
}

const tokenRefused = (err: unknown) => err instanceof GraphError && err.code === GRAPH_TOKEN_INVALID;
