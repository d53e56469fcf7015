import type { MediaType } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { historyVisibilitySql, type HistoryContext } from "../tickets/visibility.js";

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
  /** When its text and media were erased at the contact's request (LGPD), or null. */
  erased_at: Date | null;
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
  m.send_status, m.send_error, m.send_attempts, m.next_attempt_at, m.reactions, m.referral, m.media_unavailable, m.unsupported, m.erased_at, m.created_at, m.updated_at`;

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

/** A run of hidden messages as the history query finds it. */
export interface HiddenRunRow {
  beforeMessageId: number | null;
  count: number;
  queueId: number | null;
  queueName: string | null;
  queueColor: string | null;
}

export interface ConversationPage {
  /** The page's visible messages, newest first; `q_visible` false when the quoted message is one the viewer may not see. */
  rows: (MessageRow & { q_visible: boolean })[];
  /** Visible messages in the whole conversation. */
  count: number;
  /** Runs of hidden messages that belong to the page, oldest first. */
  hidden: HiddenRunRow[];
}

/**
 * One page of a conversation as the viewer may see it: every message of the contact on the
 * connection (all its tickets), or only the ticket's when the connection is gone. Messages of tickets
 * the history rule (historyVisibilitySql, decided once per ticket) hides are left out: `offset` and
 * `limit` count visible messages only, newest first, so pages neither skip nor repeat one; each run of
 * consecutive hidden messages of one ticket goes with the page of the visible message it precedes
 * (runs after the newest visible message with the first page).
 */
export async function conversationPage(
  sql: Sql,
  companyId: number,
  scope: { contactId: number; whatsappId: number | null; ticketId: number },
  viewer: HistoryContext,
  limit: number,
  offset: number,
): Promise<ConversationPage> {
  const params: unknown[] = [companyId];
  const p = (value: unknown, cast = "") => {
    params.push(value);
    return `$${params.length}${cast}`;
  };
  // a conversation without a connection is its one ticket: no other ticket shares it
  const conversation =
    scope.whatsappId === null ? { contactId: "NULL::int", whatsappId: "NULL::int" } : { contactId: p(scope.contactId, "::int"), whatsappId: p(scope.whatsappId, "::int") };
  const where =
    scope.whatsappId === null
      ? `m.company_id = $1 AND m.ticket_id = ${p(scope.ticketId, "::int")}`
      : `m.company_id = $1 AND m.contact_id = ${conversation.contactId} AND m.whatsapp_id = ${conversation.whatsappId}`;
  const visible = historyVisibilitySql(viewer, params, conversation);
  const lim = p(limit, "::int");
  const off = p(offset, "::int");
  const page = await sql.one<{ total: number; ids: string[]; runs: HiddenRunRow[] }>(
    `WITH conv AS (SELECT m.id, m.ticket_id FROM messages m WHERE ${where}),
     owners AS (
       SELECT t.id, t.queue_id, coalesce(${visible}, false) AS visible
         FROM tickets t WHERE t.company_id = $1 AND t.id IN (SELECT ticket_id FROM conv)
     ),
     ranked AS (
       SELECT c.id, c.ticket_id, o.visible, o.queue_id,
              count(*) FILTER (WHERE o.visible) OVER (ORDER BY c.id DESC) - 1 AS pos,
              min(c.id) FILTER (WHERE o.visible) OVER (ORDER BY c.id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS next_visible,
              row_number() OVER (ORDER BY c.id) - row_number() OVER (PARTITION BY c.ticket_id, o.visible ORDER BY c.id) AS island
         FROM conv c JOIN owners o ON o.id = c.ticket_id
     ),
     runs AS (
       SELECT min(r.id) AS first_id, count(*)::int AS n, min(r.next_visible) AS before_id, min(r.queue_id) AS queue_id
         FROM ranked r WHERE NOT r.visible GROUP BY r.ticket_id, r.island
     )
     SELECT (SELECT count(*)::int FROM ranked WHERE visible) AS total,
            (SELECT coalesce(array_agg(id ORDER BY id DESC), '{}') FROM ranked WHERE visible AND pos >= ${off} AND pos < ${off} + ${lim}) AS ids,
            (SELECT coalesce(json_agg(json_build_object('beforeMessageId', u.before_id, 'count', u.n, 'queueId', q.id, 'queueName', q.name,
                                                        'queueColor', q.color) ORDER BY u.first_id), '[]'::json)
               FROM runs u
               LEFT JOIN ranked a ON a.id = u.before_id
               LEFT JOIN queues q ON q.company_id = $1 AND q.id = u.queue_id
              WHERE (u.before_id IS NULL AND ${off} = 0) OR (a.pos >= ${off} AND a.pos < ${off} + ${lim})) AS runs`,
    params,
  );
  if (!page.ids.length) return { rows: [], count: page.total, hidden: page.runs };
  const rowParams: unknown[] = [companyId, page.ids];
  const quoteVisible = historyVisibilitySql(viewer, rowParams, { contactId: "qm.contact_id", whatsappId: "qm.whatsapp_id" });
  const rows = await sql.many<MessageRow & { q_visible: boolean }>(
    `SELECT ${MESSAGE_COLUMNS},
            (qm.id IS NULL OR EXISTS (SELECT 1 FROM tickets t WHERE t.company_id = qm.company_id AND t.id = qm.ticket_id AND ${quoteVisible})) AS q_visible
       FROM messages m ${MESSAGE_JOINS} WHERE m.company_id = $1 AND m.id = ANY($2::bigint[]) ORDER BY m.id DESC`,
    rowParams,
  );
  return { rows, count: page.total, hidden: page.runs };
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
