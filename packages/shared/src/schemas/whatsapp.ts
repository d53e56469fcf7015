import { z } from "zod";
import { partialWithoutDefaults } from "./contacts.js";
import { MEDIA_TYPES, SESSION_STATUSES } from "../enums.js";
import { LIMITS } from "../limits.js";
import { MSG } from "./common.js";

export const WHATSAPP_PROVIDERS = ["sandbox", "baileys", "official"] as const;
export type WhatsappProvider = (typeof WHATSAPP_PROVIDERS)[number];

const text = (max = 10000) => z.string().max(max, MSG.tooLong).default("");

/** Connection form (1-core §3/§5): name 2 to 50 required. */
export const whatsappInput = z.object({
  name: z.string({ error: MSG.required }).trim().min(1, MSG.required).min(2, MSG.tooShort).max(50, MSG.tooLong),
  provider: z.enum(WHATSAPP_PROVIDERS).default("sandbox"),
  isDefault: z.boolean().default(false),
  greetingMessage: text(),
  complationMessage: text(),
  outOfHoursMessage: text(),
  ratingMessage: text(),
  expiresInactiveMessage: text(),
  queueIds: z.array(z.number().int().positive()).max(500).default([]),
  transferQueueId: z.number().int().positive().nullable().optional(),
  /** Minutes of inactivity after which an open or pending ticket is closed; 0 = never. */
  expiresTicket: z.coerce.number().int().min(0).max(100000).default(LIMITS.expiresTicketDefault),
  /** Minutes after the last queue menu before it starts over. */
  timeUseBotQueues: z.coerce.number().int().min(0).max(100000).default(0),
  maxUseBotQueues: z.coerce.number().int().min(0).max(1000).default(LIMITS.maxUseBotQueuesDefault),
  promptId: z.number().int().positive().nullable().optional(),
  /** The queue integration (bot) answering the connection's new tickets until an agent takes them (domains/queue-integrations). */
  integrationId: z.number().int().positive().nullable().optional(),
  // No `token`: the server generates it (POST /whatsapp/{id}/token); one in the body is ignored.
});
export type WhatsappInput = z.input<typeof whatsappInput>;
export const whatsappUpdateInput = partialWithoutDefaults(whatsappInput);
export type WhatsappUpdateInput = z.input<typeof whatsappUpdateInput>;

export const whatsapp = z.object({
  id: z.number(),
  name: z.string(),
  status: z.enum(SESSION_STATUSES),
  qrcode: z.string(),
  /** Status PAIRING (Baileys "connect with phone number"): the 8-character code to type on the phone. */
  pairingCode: z.string().optional(),
  retries: z.number(),
  /** The connected phone number ('' until connected). */
  number: z.string(),
  phoneNumberStr: z.string(),
  provider: z.enum(WHATSAPP_PROVIDERS),
  isOfficial: z.boolean(),
  isDefault: z.boolean(),
  queues: z.array(z.object({ id: z.number(), name: z.string(), color: z.string(), greetingMessage: z.string() })),
  transferQueueId: z.number().nullable(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  /**
   * Last characters of the Messages API token ("" when none), for admins reading one connection.
   * The token itself is shown only once, by POST /whatsapp/{id}/token.
   */
  tokenHint: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Whatsapp = z.infer<typeof whatsapp>;

/** GET /whatsapp/providers: the connection types this server lets admins create (the form's type choice). */
export const whatsappProviders = z.object({ providers: z.array(z.enum(WHATSAPP_PROVIDERS)) });
export type WhatsappProviders = z.infer<typeof whatsappProviders>;

/** POST /whatsapp/{id}/token: the only answer that ever contains the token. */
export const whatsappApiToken = z.object({
  token: z.string().describe("The new Messages API token (Bearer); shown only in this answer"),
  tokenHint: z.string().describe("Its last characters, what the connection shows afterwards"),
});
export type WhatsappApiToken = z.infer<typeof whatsappApiToken>;

export const whatsappSession = z.object({
  id: z.number(),
  status: z.enum(SESSION_STATUSES),
  qrcode: z.string(),
  /** Status PAIRING: the 8-character code to type in WhatsApp > Aparelhos conectados > Conectar com número de telefone. */
  pairingCode: z.string().optional(),
});

/**
 * Optional body of POST /whatsappsession/{id}: with a phone number a Baileys session is paired by
 * code (status PAIRING with `pairingCode`) instead of a QR code.
 */
export const whatsappSessionStartInput = z
  .object({
    phoneNumber: z
      .string({ error: MSG.required })
      .transform((s) => s.replace(/\D/g, ""))
      .pipe(z.string().min(8, MSG.tooShort).max(20, MSG.tooLong))
      .optional(),
  })
  .nullish();
export type WhatsappSessionStartInput = z.input<typeof whatsappSessionStartInput>;
export type WhatsappSession = z.infer<typeof whatsappSession>;

/** Events on company-{id}-whatsapp and company-{id}-whatsappSession. */
export type WhatsappEvent = { action: "update"; whatsapp: Whatsapp } | { action: "delete"; whatsappId: number };
export type WhatsappSessionEvent = { action: "update"; session: WhatsappSession };

/** POST /sandbox/{whatsappId}/inbound: a customer's message, delivered as a real inbound message. */
export const sandboxInboundInput = z.object({
  number: z
    .string({ error: MSG.required })
    .transform((s) => s.replace(/\D/g, ""))
    .pipe(z.string().min(1, MSG.required).min(8, MSG.tooShort).max(50, MSG.tooLong)),
  name: z.string().trim().max(100).default(""),
  body: z.string().max(65536).default(""),
  mediaType: z.enum(MEDIA_TYPES).optional(),
  mediaBase64: z.string().max(15_000_000).optional(),
  mediaName: z.string().max(255).optional(),
  mimetype: z.string().max(255).optional(),
  /** Provider id (or message id) of the message this one replies to. */
  quotedId: z.union([z.string().max(200), z.number()]).optional(),
});
export type SandboxInboundInput = z.input<typeof sandboxInboundInput>;

export const sandboxOutboxItem = z.object({
  id: z.number(),
  providerId: z.string(),
  /** outbound: sent by an agent to the customer; inbound: written by the customer. */
  direction: z.enum(["outbound", "inbound"]),
  number: z.string(),
  body: z.string(),
  mediaType: z.string(),
  mediaName: z.string().nullable(),
  ack: z.number(),
  isDeleted: z.boolean(),
  createdAt: z.string(),
});
export type SandboxOutboxItem = z.infer<typeof sandboxOutboxItem>;

/** The sandbox phone's view: messages of the connection (optionally of one number), both directions. */
export const sandboxOutboxQuery = z.object({
  number: z.string().max(50).optional(),
  /** Only outbound (agent) messages when "true". */
  outboundOnly: z.enum(["true", "false"]).optional(),
  since: z.string().max(40).optional(),
});
export const sandboxOutbox = z.object({ records: z.array(sandboxOutboxItem) });
