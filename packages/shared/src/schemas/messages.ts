import { z } from "zod";
import { MEDIA_TYPES } from "../enums.js";
import { contactRef } from "./contacts.js";

/** A quoted message as embedded in the message that replies to it. */
export const quotedMessage = z.object({
  id: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.enum(MEDIA_TYPES),
  mediaUrl: z.string().nullable(),
  isDeleted: z.boolean(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type QuotedMessage = z.infer<typeof quotedMessage>;

/** A contact's reaction to a message (one per sender). */
export const messageReaction = z.object({
  /** The sender's number (digits). */
  from: z.string(),
  emoji: z.string(),
});
export type MessageReaction = z.infer<typeof messageReaction>;

/** The click-to-WhatsApp ad a conversation came from (Meta's `referral`), as shown to agents. */
export const messageReferral = z.object({
  sourceUrl: z.string().nullable(),
  sourceType: z.string().nullable(),
  sourceId: z.string().nullable(),
  headline: z.string().nullable(),
  body: z.string().nullable(),
});
export type MessageReferral = z.infer<typeof messageReferral>;

export const message = z.object({
  id: z.number(),
  ticketId: z.number(),
  contactId: z.number().nullable(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.enum(MEDIA_TYPES),
  /** API path (under /api, e.g. /messages/media/12) serving the file to authenticated users of the company. */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  mimetype: z.string().nullable(),
  /** 1 pending, 2 sent, 3 delivered, 4 read, 5 played (4 and 5 shown as read). */
  ack: z.number().int().min(0).max(5),
  read: z.boolean(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  quotedMsgId: z.number().nullable(),
  quotedMsg: quotedMessage.nullable(),
  contact: contactRef.nullable(),
  /** The agent who sent it (outgoing messages written in the app). */
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  /**
   * Why an outgoing message was not sent (the driver refused it, the process stopped mid-send, or the
   * Cloud API reported status `failed` with Meta's error); null otherwise. Shown as the error icon.
   */
  sendError: z.string().nullable().optional(),
  /**
   * An outgoing message the provider refused for now (rate limit, a temporary error): it waits for
   * another attempt and is shown as pending. `attempts` made so far; the next one at `nextAttemptAt`.
   */
  retry: z.object({ attempts: z.number().int(), nextAttemptAt: z.string().nullable() }).nullable().optional(),
  /** Reactions of the contact (official API); optional for older clients' caches. */
  reactions: z.array(messageReaction).optional(),
  /** The ad the contact clicked to start this conversation (official API), when any. */
  referral: messageReferral.nullable().optional(),
  /** The provider could not deliver the file: the caption is kept and a 'media unavailable' line shown. */
  mediaUnavailable: z.boolean().optional(),
  /** A message type the provider cannot deliver: shown as a 'not supported' line. */
  unsupported: z.boolean().optional(),
  /**
   * Its text and media were erased at the contact's request (LGPD, POST /contacts/:id/erase): there is
   * no file to ask for; shown as a placeholder. Optional for older clients' caches.
   */
  erased: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Message = z.infer<typeof message>;

export const messagesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});

/**
 * A run of consecutive messages of one ticket the viewer may not open, left out of the history (1-core
 * §2, conversation): shown as one line ("12 mensagens de outro atendimento na fila Financeiro
 * ocultadas") in place of the messages. Its content, its ticket and its dates are not given.
 */
export const hiddenMessagesRun = z.object({
  /**
   * The visible message the run comes just before (the next newer one shown); null: after the newest
   * visible message of the history (then it comes with page 1).
   */
  beforeMessageId: z.number().nullable(),
  /** How many messages the run holds. */
  count: z.number().int().positive(),
  /** The queue of the ticket they belong to, or null for a ticket without a queue. */
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
});
export type HiddenMessagesRun = z.infer<typeof hiddenMessagesRun>;

/**
 * GET /messages/{ticketId}: 20 visible messages per page, pages counted from the newest, each page in
 * chronological order. The pages cover the messages of the same contact on the same connection,
 * including the contact's earlier (closed) tickets; `ticketId` on each message tells which ticket it
 * belonged to. Messages of tickets the viewer may not open are left out (canSeeInHistory: unless the
 * company enabled shareContactHistory) and `hidden` says where and how many, each run with the page of
 * the visible message it precedes; `count` and the paging count visible messages only.
 */
export const messagesPage = z.object({
  messages: z.array(message),
  hasMore: z.boolean(),
  /** Visible messages in the whole history. */
  count: z.number(),
  /** Runs of hidden messages that belong to this page, oldest first. */
  hidden: z.array(hiddenMessagesRun),
});
export type MessagesPage = z.infer<typeof messagesPage>;

/** JSON body of POST /messages/{ticketId}. Multipart sends the same fields plus files in `medias`. */
export const messageSendInput = z.object({
  body: z.string().max(65536).default(""),
  /** The message replied to: an object with its id (as the web sends it) or null. */
  quotedMsg: z
    .object({ id: z.coerce.number().int().positive() })
    .loose()
    .nullable()
    .optional(),
  /** Prefix the agent's name in bold ("*Name*:\n"); the web sends its signOption. */
  sign: z.boolean().optional(),
  /** An attachment already stored by the app (a quick message's mediaPath). */
  mediaUrl: z.string().max(500).optional(),
  /** Sent by the spec's front end as `read: 1` (and some clients as a boolean); the server decides both. */
  read: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  fromMe: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
});
export type MessageSendInput = z.input<typeof messageSendInput>;

/** POST /messages/{ticketId}: the messages recorded (one per attachment, or one text). */
export const messageSendResponse = z.object({ messages: z.array(message) });
export type MessageSendResponse = z.infer<typeof messageSendResponse>;

/** Events on company-{id}-appMessage. */
export interface AppMessageEvent<TTicket = unknown> {
  action: "create" | "update";
  message: Message;
  ticket: TTicket;
  contact: z.infer<typeof contactRef> | null;
}
