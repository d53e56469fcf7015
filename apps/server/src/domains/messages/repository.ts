import type { MediaType } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface MessageRow {
  id: number;
  company_id: number;
  ticket_id: number;
  contact_id: number;
  whatsapp_id: number | null;
  provider_id: string | null;
  body: string;
  from_me: boolean;
  media_type: MediaType;
  media_path: string | null;
  media_name: string | null;
  mimetype: string | null;
  ack: number;
  read: boolean;
  is_deleted: boolean;
  is_edited: boolean;
  quoted_msg_id: number | null;
  user_id: number | null;
  user_name: string | null;
  contact_name: string;
  contact_number: string;
  contact_profile_pic_url: string;
  contact_is_group: boolean;
  q_id: number | null;
  q_body: string | null;
  q_from_me: boolean | null;
  q_media_type: MediaType | null;
  q_has_media: boolean | null;
  q_is_deleted: boolean | null;
  send_status: string | null;
  send_error: string | null;
  send_attempts: number;
  next_attempt_at: Date | null;
  reactions: { from: string; emoji: string }[];
  referral: Record<string, unknown> | null;
  media_unavailable: boolean;
  unsupported: boolean;
  created_at: Date;
  updated_at: Date;
}

export const MESSAGE_COLUMNS = `
  m.id, m.company_id, m.ticket_id, m.contact_id, m.whatsapp_id, m.provider_id, m.body, m.from_me, m.media_type,
  m.media_path, m.media_name, m.mimetype, m.ack, m.read, m.is_deleted, m.is_edited, m.quoted_msg_id, m.user_id,
  mu.name AS user_name, c.name AS contact_name, c.number AS contact_number,
  c.profile_pic_url AS contact_profile_pic_url, c.is_group AS contact_is_group,
  qm.id AS q_id, qm.body AS q_body, qm.from_me AS q_from_me, qm.media_type AS q_media_type,
  (qm.media_path IS NOT NULL) AS q_has_media, qm.is_deleted AS q_is_deleted,
  m.send_status, m.send_error, m.send_attempts, m.next_attempt_at, m.reactions, m.referral, m.media_unavailable, m.unsupported, m.created_at, m.updated_at`;

export const MESSAGE_JOINS = `
  JOIN contacts c ON c.company_id = m.company_id AND c.id = m.contact_id
  LEFT JOIN users mu ON mu.company_id = m.company_id AND mu.id = m.user_id
  LEFT JOIN messages qm ON qm.company_id = m.company_id AND qm.id = m.quoted_msg_id`;

export function findMessage(sql: Sql, companyId: number, id: number) {
  return sql.maybe<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages m ${MESSAGE_JOINS} WHERE m.company_id = $1 AND m.id = $2`, [
    companyId,
    id,
  ]);
}

export function findByProviderId(sql: Sql, companyId: number, whatsappId: number, providerId: string) {
  return sql.maybe<{ id: number; ticket_id: number }>(
    "SELECT id, ticket_id FROM messages WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3",
    [companyId, whatsappId, providerId],
  );
}

/**
 * One page of a conversation, newest first: every message of the contact on the connection (all its
 * tickets), or only the ticket's when the connection is gone.
 */
export async function conversationPage(
  sql: Sql,
  companyId: number,
  scope: { contactId: number; whatsappId: number | null; ticketId: number },
  limit: number,
  offset: number,
): Promise<{ rows: MessageRow[]; count: number }> {
  const where =
    scope.whatsappId === null
      ? "m.company_id = $1 AND m.ticket_id = $2"
      : "m.company_id = $1 AND m.contact_id = $2 AND m.whatsapp_id = $3";
  const params = scope.whatsappId === null ? [companyId, scope.ticketId] : [companyId, scope.contactId, scope.whatsappId];
  const rows = await sql.many<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages m ${MESSAGE_JOINS} WHERE ${where}
      ORDER BY m.id DESC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    params,
  );
  const count = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM messages m WHERE ${where}`, params);
  return { rows, count: count.n };
}

/** The last `limit` messages of each ticket (offline cache), oldest first per ticket. */
export function lastMessagesOfTickets(sql: Sql, companyId: number, ticketIds: number[], limit: number) {
  if (!ticketIds.length) return Promise.resolve([] as MessageRow[]);
  return sql.many<MessageRow>(
    `SELECT x.* FROM unnest($2::int[]) AS tid(id)
       CROSS JOIN LATERAL (
         SELECT ${MESSAGE_COLUMNS} FROM messages m ${MESSAGE_JOINS}
          WHERE m.company_id = $1 AND m.ticket_id = tid.id
          ORDER BY m.id DESC LIMIT ${Number(limit)}
       ) x
      ORDER BY x.ticket_id, x.id`,
    [companyId, ticketIds],
  );
}

export interface NewMessage {
  companyId: number;
  ticketId: number;
  contactId: number;
  whatsappId: number | null;
  providerId: string | null;
  body: string;
  fromMe: boolean;
  mediaType: MediaType;
  mediaPath?: string | null;
  mediaName?: string | null;
  mimetype?: string | null;
  ack: number;
  read: boolean;
  quotedMsgId?: number | null;
  userId?: number | null;
  /** The provider's time of the message; the arrival time when absent. */
  createdAt?: Date | null;
  referral?: Record<string, unknown> | null;
  mediaUnavailable?: boolean;
  unsupported?: boolean;
}

/** Inserts a message; null when its provider id is already stored (a duplicate delivery). */
export async function insertMessage(sql: Sql, m: NewMessage): Promise<number | null> {
  const row = await sql.maybe<{ id: number }>(
    `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, provider_id, body, from_me, media_type,
                           media_path, media_name, mimetype, ack, read, quoted_msg_id, user_id, created_at, referral, media_unavailable, unsupported)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15, LEAST(COALESCE($16::timestamptz, now()), now()), $17, $18, $19)
     ON CONFLICT (company_id, whatsapp_id, provider_id) WHERE provider_id IS NOT NULL DO NOTHING
     RETURNING id`,
    [
      m.companyId,
      m.ticketId,
      m.contactId,
      m.whatsappId,
      m.providerId,
      m.body,
      m.fromMe,
      m.mediaType,
      m.mediaPath ?? null,
      m.mediaName ?? null,
      m.mimetype ?? null,
      m.ack,
      m.read,
      m.quotedMsgId ?? null,
      m.userId ?? null,
      m.createdAt ?? null,
      m.referral ?? null,
      m.mediaUnavailable ?? false,
      m.unsupported ?? false,
    ],
  );
  return row?.id ?? null;
}

/** The ticket's last-message fields after a new message. */
export async function touchTicketWithMessage(
  sql: Sql,
  companyId: number,
  ticketId: number,
  messageId: number,
  preview: string,
  fromMe: boolean,
): Promise<void> {
  await sql.exec(
    `UPDATE tickets SET last_message = $3, last_message_at = now(), last_message_id = $4, from_me = $5,
            unread_messages = CASE WHEN $5 THEN unread_messages ELSE unread_messages + 1 END, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [companyId, ticketId, preview.slice(0, 1000), messageId, fromMe],
  );
}

export function markDeleted(sql: Sql, companyId: number, id: number) {
  return sql.exec("UPDATE messages SET is_deleted = true, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export function markTicketMessagesRead(sql: Sql, companyId: number, ticketId: number) {
  return sql.exec("UPDATE messages SET read = true WHERE company_id = $1 AND ticket_id = $2 AND NOT read AND NOT from_me", [
    companyId,
    ticketId,
  ]);
}

/** Raises (never lowers) the ack of a message identified by its provider id. */
export function raiseAck(sql: Sql, companyId: number, whatsappId: number, providerId: string, ack: number) {
  return sql.maybe<{ id: number; ticket_id: number }>(
    `UPDATE messages SET ack = $4, updated_at = now()
      WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3 AND ack < $4
      RETURNING id, ticket_id`,
    [companyId, whatsappId, providerId, ack],
  );
}
