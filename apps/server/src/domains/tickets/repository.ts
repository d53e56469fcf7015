import type { Sql } from "../../db/sql.js";

export interface TicketRow {
  id: number;
  company_id: number;
  uuid: string;
  status: "pending" | "open" | "paused" | "closed";
  user_id: number | null;
  user_name: string | null;
  queue_id: number | null;
  queue_name: string | null;
  queue_color: string | null;
  transfer_queue_id: number | null;
  whatsapp_id: number | null;
  whatsapp_name: string | null;
  whatsapp_status: string | null;
  whatsapp_provider: string | null;
  whatsapp_is_official: boolean | null;
  contact_id: number;
  contact_name: string;
  contact_number: string;
  /** Where WhatsApp delivers to the contact: its WhatsApp id when known, else its number (or user id). */
  contact_address: string;
  contact_profile_pic_url: string;
  contact_is_group: boolean;
  last_message: string;
  last_message_at: Date | null;
  last_message_ack: number | null;
  last_message_from_me: boolean | null;
  unread_messages: number;
  is_group: boolean;
  chatbot: boolean;
  from_me: boolean;
  origin_from_me: boolean;
  use_integration: boolean;
  prompt_id: number | null;
  integration_id: number | null;
  amount_used_bot_queues: number;
  tags: { id: number; name: string; color: string }[];
  created_at: Date;
  updated_at: Date;
}

/**
 * The ticket's own columns that TICKET_COLUMNS and TICKET_JOINS read: a subquery that selects them
 * (`SELECT ${TICKET_FIELDS} FROM tickets t ...`) can stand for `tickets t`, so a page walked through
 * an index is joined with its details without reading its rows a second time.
 */
export const TICKET_FIELDS = [
  "id", "company_id", "uuid", "status", "user_id", "queue_id", "transfer_queue_id", "whatsapp_id", "contact_id",
  "last_message", "last_message_at", "last_message_id", "unread_messages", "is_group", "chatbot", "from_me", "origin_from_me",
  "use_integration", "prompt_id", "integration_id", "amount_used_bot_queues", "created_at", "updated_at",
].map((c) => `t.${c}`).join(", ");

/** The columns every ticket presenter needs, over `tickets t` (or a subquery of TICKET_FIELDS named t). */
export const TICKET_COLUMNS = `
  t.id, t.company_id, t.uuid::text AS uuid, t.status, t.user_id, u.name AS user_name,
  t.queue_id, q.name AS queue_name, q.color AS queue_color, t.transfer_queue_id,
  t.whatsapp_id, w.name AS whatsapp_name, w.status AS whatsapp_status, w.provider AS whatsapp_provider, w.is_official AS whatsapp_is_official,
  t.contact_id, c.name AS contact_name, c.number AS contact_number, COALESCE(c.wa_id, c.number) AS contact_address,
  c.profile_pic_url AS contact_profile_pic_url, c.is_group AS contact_is_group,
  t.last_message, t.last_message_at, lm.ack AS last_message_ack, lm.from_me AS last_message_from_me,
  t.unread_messages, t.is_group, t.chatbot, t.from_me, t.origin_from_me, t.use_integration, t.prompt_id, t.integration_id,
  t.amount_used_bot_queues,
  COALESCE((SELECT json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) ORDER BY tg.name)
              FROM ticket_tags tt JOIN tags tg ON tg.company_id = tt.company_id AND tg.id = tt.tag_id
             WHERE tt.ticket_id = t.id), '[]') AS tags,
  t.created_at, t.updated_at`;

export const TICKET_JOINS = `
  JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
  LEFT JOIN users u ON u.company_id = t.company_id AND u.id = t.user_id
  LEFT JOIN queues q ON q.company_id = t.company_id AND q.id = t.queue_id
  LEFT JOIN whatsapps w ON w.company_id = t.company_id AND w.id = t.whatsapp_id
  LEFT JOIN messages lm ON lm.id = t.last_message_id`;

/** Locks the ticket's row for the transaction and returns what a conflict check compares. */
export function lockTicket(sql: Sql, companyId: number, id: number) {
  return sql.maybe<Pick<TicketRow, "status" | "user_id" | "queue_id" | "whatsapp_id">>(
    "SELECT status, user_id, queue_id, whatsapp_id FROM tickets WHERE company_id = $1 AND id = $2 FOR UPDATE",
    [companyId, id],
    { prepare: true },
  );
}

export async function findTicket(sql: Sql, companyId: number, id: number): Promise<TicketRow | null> {
  return sql.maybe<TicketRow>(`SELECT ${TICKET_COLUMNS} FROM tickets t ${TICKET_JOINS} WHERE t.company_id = $1 AND t.id = $2`, [companyId, id], { prepare: true });
}

export function findTicketByUuid(sql: Sql, companyId: number, uuid: string) {
  return sql.maybe<TicketRow>(`SELECT ${TICKET_COLUMNS} FROM tickets t ${TICKET_JOINS} WHERE t.company_id = $1 AND t.uuid = $2::uuid`, [
    companyId,
    uuid,
  ]);
}

/** Tickets by id, in the given order. */
export async function ticketsByIds(sql: Sql, companyId: number, ids: number[]): Promise<TicketRow[]> {
  if (!ids.length) return [];
  // prepared: planning this query costs several times its execution (joins, tag aggregate)
  const rows = await sql.many<TicketRow>(
    `SELECT ${TICKET_COLUMNS} FROM tickets t ${TICKET_JOINS} WHERE t.company_id = $1 AND t.id = ANY($2::int[])`,
    [companyId, ids],
    { prepare: true },
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is TicketRow => Boolean(r));
}

/** The contact's ticket that is not closed on a connection, if any. */
export function findActiveTicket(sql: Sql, companyId: number, contactId: number, whatsappId: number | null) {
  return sql.maybe<{ id: number }>(
    `SELECT id FROM tickets WHERE company_id = $1 AND contact_id = $2 AND whatsapp_id IS NOT DISTINCT FROM $3 AND status <> 'closed'`,
    [companyId, contactId, whatsappId],
  );
}

export interface TicketPatch {
  status?: string;
  user_id?: number | null;
  queue_id?: number | null;
  whatsapp_id?: number | null;
  transfer_queue_id?: number | null;
  unread_messages?: number;
  chatbot?: boolean;
  use_integration?: boolean;
  prompt_id?: number | null;
  integration_id?: number | null;
  amount_used_bot_queues?: number;
  from_me?: boolean;
  closed_at?: Date | null;
}

/** Applies a patch (column names are from the fixed TicketPatch keys) and bumps updated_at. */
export async function updateTicket(sql: Sql, companyId: number, id: number, patch: TicketPatch): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [companyId, id];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (!/^[a-z_]+$/.test(key)) throw new Error(`bad column ${key}`);
    params.push(value);
    sets.push(`${key} = $${params.length}`);
  }
  sets.push("updated_at = now()");
  await sql.exec(`UPDATE tickets SET ${sets.join(", ")} WHERE company_id = $1 AND id = $2`, params);
}

export interface NewTicket {
  companyId: number;
  contactId: number;
  whatsappId: number | null;
  status: "pending" | "open";
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
  originFromMe: boolean;
}

/**
 * Creates a ticket unless the contact already has one that is not closed on that connection;
 * returns null in that case (the partial unique index decides, even under concurrency).
 */
export async function insertTicketIfNone(sql: Sql, t: NewTicket): Promise<number | null> {
  // INSERT ... SELECT with NOT EXISTS: a refused creation (the contact already has an unclosed ticket on
  // this connection) draws no id from the sequence, so ticket numbers have no gaps from refusals; the
  // ON CONFLICT still settles two creations racing each other.
  const row = await sql.maybe<{ id: number }>(
    `INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, user_id, queue_id, is_group, origin_from_me, from_me)
     SELECT $1, $2, $3::int, $4, $5::int, $6::int, $7::boolean, $8::boolean, $8::boolean
      WHERE NOT EXISTS (SELECT 1 FROM tickets WHERE company_id = $1 AND contact_id = $2 AND whatsapp_id = $3::int AND status <> 'closed')
     ON CONFLICT (company_id, contact_id, whatsapp_id) WHERE status <> 'closed' DO NOTHING
     RETURNING id`,
    [t.companyId, t.contactId, t.whatsappId, t.status, t.userId, t.queueId, t.isGroup, t.originFromMe],
  );
  return row?.id ?? null;
}

export function deleteTicket(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM tickets WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export function tagCount(sql: Sql, companyId: number, ticketId: number) {
  return sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_tags WHERE company_id = $1 AND ticket_id = $2", [companyId, ticketId]);
}

/** The user's most recently updated open ticket other than `exceptId`. */
export function nextOpenTicket(sql: Sql, companyId: number, userId: number, exceptId: number) {
  return sql.maybe<{ id: number; uuid: string }>(
    `SELECT id, uuid::text AS uuid FROM tickets
      WHERE company_id = $1 AND user_id = $2 AND status = 'open' AND id <> $3
      ORDER BY updated_at DESC, id DESC LIMIT 1`,
    [companyId, userId, exceptId],
  );
}

export function resetUnread(sql: Sql, companyId: number, id: number) {
  return sql.exec("UPDATE tickets SET unread_messages = 0 WHERE company_id = $1 AND id = $2 AND unread_messages <> 0", [companyId, id]);
}

export function userInCompany(sql: Sql, companyId: number, userId: number) {
  return sql.maybe<{ id: number; name: string }>("SELECT id, name FROM users WHERE company_id = $1 AND id = $2", [companyId, userId]);
}

export function queueInCompany(sql: Sql, companyId: number, queueId: number) {
  return sql.maybe<{ id: number; name: string; greeting_message: string }>(
    "SELECT id, name, greeting_message FROM queues WHERE company_id = $1 AND id = $2",
    [companyId, queueId],
  );
}
