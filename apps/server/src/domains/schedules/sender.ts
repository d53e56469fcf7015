import { channel, type Message } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { rooms } from "../../core/realtime.js";
import type { Sql } from "../../db/sql.js";
import { renderVariables } from "./variables.js";

/** What a schedule sends, read under the schedule's row lock. */
export interface ScheduleDelivery {
  companyId: number;
  scheduleId: number;
  /** The body as written, variables not yet replaced. */
  body: string;
  userId: number | null;
  /** The connection chosen in the dialog, if any. */
  whatsappId: number | null;
  contactId: number;
  media: { path: string; name: string } | null;
}

export interface ScheduleSendResult {
  ticketId: number;
  messageId: number;
  /** Real-time notices, run only once the transaction that recorded the send has committed. */
  afterCommit?: () => void | Promise<void>;
}

/**
 * Delivers one schedule. `sql` is the transaction holding the schedule's row lock: whatever the sender
 * records with it commits together with sentAt, so a crash never leaves a message without sentAt
 * (nor the reverse). Throwing marks the schedule ERRO with the error's message.
 */
export interface ScheduleSender {
  send(sql: Sql, delivery: ScheduleDelivery): Promise<ScheduleSendResult>;
}

export class ScheduleSendError extends Error {}

interface ContactRow {
  id: number;
  name: string;
  number: string;
  profile_pic_url: string;
  is_group: boolean;
  whatsapp_id: number | null;
}

/** The connection to use: the chosen one, else the contact's, else its latest ticket's, else the company default. */
async function resolveWhatsapp(sql: Sql, companyId: number, contact: ContactRow, chosen: number | null): Promise<number> {
  const row = await sql.maybe<{ id: number }>(
    `SELECT w.id FROM whatsapps w
      WHERE w.company_id = $1
        AND w.id = COALESCE($2::int, $3::int,
              (SELECT t.whatsapp_id FROM tickets t WHERE t.company_id = $1 AND t.contact_id = $4 AND t.whatsapp_id IS NOT NULL
                ORDER BY t.updated_at DESC LIMIT 1),
              (SELECT d.id FROM whatsapps d WHERE d.company_id = $1 AND d.is_default LIMIT 1))`,
    [companyId, chosen, contact.whatsapp_id, contact.id],
  );
  if (!row) throw new ScheduleSendError("Nenhuma conexão disponível para enviar a mensagem");
  return row.id;
}

const MIME: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg" };

/**
 * The default sender: records the outgoing message on the contact's open ticket (created open for the
 * schedule's author when there is none) and announces it on company-{id}-appMessage and -ticket, the
 * same rows and events as a message sent from the ticket screen; the connection's driver delivers it.
 */
export function sendScheduledMessage(ctx: AppContext): ScheduleSender["send"] {
  return async (sql, d) => {
    const contact = await sql.maybe<ContactRow>(
      "SELECT id, name, number, profile_pic_url, is_group, whatsapp_id FROM contacts WHERE company_id = $1 AND id = $2",
      [d.companyId, d.contactId],
    );
    if (!contact) throw new ScheduleSendError("Contato não encontrado");
    const whatsappId = await resolveWhatsapp(sql, d.companyId, contact, d.whatsappId);
    const author = d.userId
      ? await sql.maybe<{ id: number }>("SELECT id FROM users WHERE company_id = $1 AND id = $2", [d.companyId, d.userId])
      : null;
    const ticket = await sql.one<{ id: number; uuid: string; created_at: Date }>(
      `INSERT INTO tickets (company_id, contact_id, whatsapp_id, user_id, status, is_group, from_me, origin_from_me)
       VALUES ($1, $2, $3, $4, CASE WHEN $4::int IS NULL THEN 'pending' ELSE 'open' END, $5, true, true)
       ON CONFLICT (company_id, contact_id, whatsapp_id) WHERE status <> 'closed' DO UPDATE SET updated_at = now()
       RETURNING id, uuid, created_at`,
      [d.companyId, contact.id, whatsappId, author?.id ?? null, contact.is_group],
    );
    const now = new Date();
    const protocol = `${ticket.created_at.toISOString().slice(0, 10).replace(/-/g, "")}${ticket.id}`;
    const body = renderVariables(d.body, { contactName: contact.name, protocol, now });
    const ext = d.media?.name.split(".").pop()?.toLowerCase() ?? "";
    const msg = await sql.one<{ id: number; created_at: Date; updated_at: Date }>(
      `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, media_type, media_path, media_name, mimetype, ack, read, user_id)
       VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $9, 1, true, $10) RETURNING id, created_at, updated_at`,
      [d.companyId, ticket.id, contact.id, whatsappId, body, d.media ? "image" : "chat", d.media?.path ?? null, d.media?.name ?? null, d.media ? (MIME[ext] ?? null) : null, author?.id ?? null],
    );
    await sql.exec(
      `UPDATE tickets SET last_message = $3, last_message_at = $4, last_message_id = $5, from_me = true, updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [d.companyId, ticket.id, body || d.media?.name || "", msg.created_at, msg.id],
    );
    const message: Message = {
      id: msg.id,
      ticketId: ticket.id,
      contactId: contact.id,
      body,
      fromMe: true,
      mediaType: d.media ? "image" : "chat",
      mediaUrl: d.media ? `/messages/media/${msg.id}` : null,
      mediaName: d.media?.name ?? null,
      mimetype: d.media ? (MIME[ext] ?? null) : null,
      ack: 1,
      read: true,
      isDeleted: false,
      isEdited: false,
      quotedMsgId: null,
      quotedMsg: null,
      contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: contact.profile_pic_url, isGroup: contact.is_group },
      userId: author?.id ?? null,
      user: null,
      createdAt: msg.created_at.toISOString(),
      updatedAt: msg.updated_at.toISOString(),
    };
    return {
      ticketId: ticket.id,
      messageId: msg.id,
      afterCommit: () => {
        ctx.realtime.emit(rooms.company(d.companyId), channel.appMessage(d.companyId), {
          action: "create",
          message,
          ticket: { id: ticket.id, uuid: ticket.uuid },
          contact: message.contact,
        });
      },
    };
  };
}
