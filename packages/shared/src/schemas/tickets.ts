import { z } from "zod";
import { TICKET_STATUSES } from "../enums.js";
import { isoDate } from "./common.js";
import { contactRef } from "./contacts.js";
import { message } from "./messages.js";
import { tagRef } from "./tags.js";

export const TICKET_ORIGINS = ["proactive", "reactive"] as const;
export type TicketOrigin = (typeof TICKET_ORIGINS)[number];

export const TICKET_ACTIONS = ["accept", "return", "pause", "resume", "finish", "reopen", "transfer"] as const;
export type TicketAction = (typeof TICKET_ACTIONS)[number];

/** A list parameter sent as a JSON array ("[1,2]", as the web's api() does), a comma list or one value. */
function listParam<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => {
    if (v === undefined || v === null || v === "") return undefined;
    if (Array.isArray(v)) return v;
    const s = String(v).trim();
    if (s.startsWith("[")) {
      try {
        return JSON.parse(s) as unknown;
        // eslint-disable-next-line no-restricted-syntax -- not JSON: the text goes on to the array schema, which refuses it (ERR_VALIDATION)
      } catch {
        return s;
      }
    }
    return s.split(",").map((x) => x.trim()).filter(Boolean);
  }, z.array(item).max(500).optional());
}
const boolParam = z.preprocess((v) => (v === "true" || v === true ? true : v === "false" || v === false ? false : v), z.boolean().optional());
const idItem = z.coerce.number().int().positive();

/** GET /tickets query (1-core §7). 40 tickets per page, newest update first. */
export const ticketsQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  status: z.enum(TICKET_STATUSES).optional(),
  tags: listParam(idItem),
  users: listParam(idItem),
  queueIds: listParam(idItem),
  /** proactive (ATIVO, originFromMe) or reactive (RECEPTIVO). */
  origins: listParam(z.enum(TICKET_ORIGINS)),
  /** Created on this day (YYYY-MM-DD). */
  date: isoDate.optional(),
  /** Updated on this day (YYYY-MM-DD). */
  updatedAt: isoDate.optional(),
  showAll: boolParam,
  withUnreadMessages: boolParam,
  /** Also list tickets without a queue (default true). */
  includeNoQueue: boolParam,
});
export type TicketsQuery = z.input<typeof ticketsQuery>;

export const ticket = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.enum(TICKET_STATUSES),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  transferQueueId: z.number().nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string(), status: z.string(), isOfficial: z.boolean(), provider: z.string() }).nullable(),
  contactId: z.number(),
  contact: contactRef,
  tags: z.array(tagRef),
  lastMessage: z.string(),
  lastMessageAt: z.string().nullable(),
  /** Ack of the last message when it is outgoing; null otherwise. */
  lastMessageAck: z.number().nullable(),
  unreadMessages: z.number(),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  fromMe: z.boolean(),
  /** true: proactive (ATIVO, started by an agent); false: reactive (RECEPTIVO). */
  originFromMe: z.boolean(),
  useIntegration: z.boolean(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  /** The ticket's protocol number (also the {{protocol}} variable). */
  code: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ticket = z.infer<typeof ticket>;

export const ticketsPage = z.object({
  tickets: z.array(ticket),
  hasMore: z.boolean(),
  /**
   * Matching tickets, counted up to 1000 (1000 means "1000 or more"); given on the first page of a
   * list without searchParam, else null.
   */
  count: z.number().nullable(),
});
export type TicketsPage = z.infer<typeof ticketsPage>;

const phone = z
  .string({ error: "Digite um número de telefone válido" })
  .transform((s) => s.replace(/\D/g, ""))
  .pipe(z.string().min(10, "Digite um número de telefone válido").max(50, "Digite um número de telefone válido"));

/**
 * POST /tickets. JSON: an existing contactId; multipart: a phone number (the contact is found or
 * created) and an optional `file`. Either way the ticket is created open for the user (originFromMe).
 */
export const ticketCreateInput = z
  .object({
    contactId: z.coerce.number().int().positive().optional(),
    number: phone.optional(),
    whatsappId: z.coerce.number({ error: "Selecione uma conexão para abrir o ticket" }).int().positive().optional(),
    userId: z.coerce.number().int().positive().nullable().optional(),
    queueId: z.coerce.number().int().positive().nullable().optional(),
    status: z.enum(TICKET_STATUSES).optional(),
    message: z.string().max(65536).optional(),
  })
  .refine((v) => v.contactId !== undefined || v.number !== undefined, { message: "Digite um número de telefone válido", path: ["number"] });
export type TicketCreateInput = z.input<typeof ticketCreateInput>;

/**
 * PUT /tickets/{id}. `action` names the §4 transition; without it the transition is inferred from
 * `status` (and a `queueId` in the body means transfer), as the original clients send it.
 */
export const ticketUpdateInput = z.object({
  action: z.enum(TICKET_ACTIONS).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  userId: z.number().int().positive().nullable().optional(),
  queueId: z.number().int().positive().nullable().optional(),
  whatsappId: z.number().int().positive().nullable().optional(),
  useIntegration: z.boolean().optional(),
  promptId: z.number().int().positive().nullable().optional(),
  integrationId: z.number().int().positive().nullable().optional(),
});
export type TicketUpdateInput = z.infer<typeof ticketUpdateInput>;

export const ticketUpdateResponse = ticket.extend({
  /** After a pause: the user's next open ticket to show (most recently updated), else null. */
  nextTicket: z.object({ id: z.number(), uuid: z.string() }).nullable().optional(),
});
export type TicketUpdateResponse = z.infer<typeof ticketUpdateResponse>;

/** GET /tickets/sync: tickets updated in [since, until), newest first, 100 per call, with their last 30 messages. */
export const ticketSyncQuery = z.object({
  since: z.string().datetime({ offset: true }).optional(),
  until: z.string().datetime({ offset: true }).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional().default(100),
});
export const syncedTicket = ticket.extend({ messages: z.array(message) });
export type SyncedTicket = z.infer<typeof syncedTicket>;
export const ticketSyncResponse = z.object({ tickets: z.array(syncedTicket), hasMore: z.boolean() });
export type TicketSyncResponse = z.infer<typeof ticketSyncResponse>;

/** Ticket notes (1-core §5: at least 2 characters). */
export const ticketNoteInput = z.object({
  note: z.string({ error: "Required" }).trim().min(1, "Required").min(2, "Too Short!").max(10000, "Too Long!"),
  ticketId: z.coerce.number().int().positive(),
  contactId: z.coerce.number().int().positive(),
});
export type TicketNoteInput = z.infer<typeof ticketNoteInput>;
export const ticketNotesQuery = z.object({
  ticketId: z.coerce.number().int().positive().optional(),
  contactId: z.coerce.number().int().positive().optional(),
});
export const ticketNote = z.object({
  id: z.number(),
  note: z.string(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  ticketId: z.number(),
  contactId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TicketNote = z.infer<typeof ticketNote>;

/** Events on company-{id}-ticket. */
export type TicketEvent =
  | { action: "update"; ticket: Ticket }
  | { action: "delete"; ticketId: number }
  | { action: "updateUnread"; ticketId: number };
