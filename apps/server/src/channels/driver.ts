import type { MediaType, SessionStatus } from "@atende/shared";
import type { LeaseFence } from "./ownership.js";

/**
 * The contract every WhatsApp driver implements (sandbox now; Baileys and the Cloud API later).
 * A driver talks to one connection (`whatsapps` row). It never touches tickets or contacts: it
 * reports what happens through `DriverEvents`, and the channel manager turns those into session
 * updates, the inbound pipeline and ack updates.
 */
export interface WhatsappDriver {
  readonly whatsappId: number;
  readonly companyId: number;
  /**
   * The lease this driver was started under (ownership.ts): the driver's writes on the connection's
   * state are fenced with it, so they stop the moment another process takes the connection over.
   */
  readonly fence?: LeaseFence;
  /** Starts a session: emits `qr` (unpaired) or `status: CONNECTED` (already paired). */
  connect(): Promise<void>;
  /** Ends the session (logout); emits `status: DISCONNECTED`. */
  disconnect(): Promise<void>;
  /** Stops the driver without logging out (server shutdown). */
  stop(): Promise<void>;
  /**
   * Refusals known before anything is sent (e.g. the official 24-hour window, the provider's size and
   * type limits of `outgoing`): thrown as an AppError, and the message is then not stored at all. Optional.
   */
  precheck?(to: string, outgoing?: OutgoingCheck): Promise<void>;
  sendText(to: string, body: string, opts?: SendOptions): Promise<SentMessage>;
  sendMedia(to: string, media: OutgoingMedia, opts?: SendOptions): Promise<SentMessage>;
  /** An approved template (official API only; drivers without templates omit it). */
  sendTemplate?(to: string, template: TemplateMessage): Promise<SentMessage>;
  deleteMessage(to: string, providerId: string): Promise<void>;
  /** Tells the contact's phone their messages were read. */
  markRead(to: string): Promise<void>;
  /** The number as WhatsApp knows it (digits), or null when it has no WhatsApp; drivers that cannot tell omit it. */
  checkNumber?(number: string): Promise<string | null>;
}

/** A template message as the Cloud API takes it (name, language code, filled components). */
export interface TemplateMessage {
  name: string;
  language: string;
  components?: unknown[];
}

/** What a send is about to carry, for the driver's precheck (the text, or the file and its caption). */
export interface OutgoingCheck {
  body: string;
  media?: { data: Buffer; mimetype: string };
}

export interface SendOptions {
  /** Provider id of the message being replied to. */
  quotedProviderId?: string;
}

export interface OutgoingMedia {
  data: Buffer;
  fileName: string;
  mimetype: string;
  mediaType: MediaType;
  caption?: string;
}

export interface SentMessage {
  providerId: string;
  /** The id WhatsApp answered the send with for the recipient (Meta's `wa_id`): kept as the contact's WhatsApp id. */
  waId?: string;
}

export interface InboundMessage {
  /** Provider message id (unique per connection). */
  providerId: string;
  /**
   * The sender as the provider names it: a phone number (digits, in whatever form WhatsApp uses), a
   * group id, or, for a WhatsApp user known only by a username, the business-scoped user id.
   */
  from: string;
  /** The business-scoped user id that came with a phone number (official API), linking the two. */
  userId?: string;
  /** The contact's display name as the provider knows it. */
  pushName: string;
  body: string;
  mediaType: MediaType;
  media?: { data: Buffer; fileName: string; mimetype: string };
  quotedProviderId?: string;
  isGroup?: boolean;
  timestamp?: Date;
  /** Sent from the connection's own phone (not through the app): stored as outgoing, never routed. */
  fromMe?: boolean;
  /** The click-to-WhatsApp ad the message came from (the provider's object, kept as sent). */
  referral?: Record<string, unknown>;
  /** The provider could not deliver the file: stored with its caption and this mark, without media. */
  mediaUnavailable?: boolean;
  /** A type the provider cannot deliver: stored with this mark (shown as 'not supported'). */
  unsupported?: boolean;
}

export interface DriverEvents {
  qr(qrcode: string): void | Promise<void>;
  /** `pairingCode` with status PAIRING: the code the user types on the phone (instead of scanning a QR). */
  status(status: SessionStatus, info?: { number?: string; pairingCode?: string }): void | Promise<void>;
  /** Resolves when the message has been stored (the caller may await the pipeline). */
  message(message: InboundMessage): Promise<unknown>;
  ack(providerId: string, ack: number): void | Promise<void>;
  /** The sender edited a stored message (new text). */
  edit?(providerId: string, body: string): Promise<unknown>;
  /** The sender deleted a stored message for everyone. */
  revoke?(providerId: string): Promise<unknown>;
}

export interface DriverFactoryInput {
  whatsappId: number;
  companyId: number;
  events: DriverEvents;
}
