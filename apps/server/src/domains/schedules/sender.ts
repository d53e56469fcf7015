import type { AppContext } from "../../core/context.js";
import { requireConnectionReady } from "../../channels/connection-wait.js";
import { sendOutgoing } from "../messages/send-message.js";
import { applyVariables } from "../messages/variables.js";
import { emitTicketUpdate } from "../tickets/events.js";
import { ticketProtocol } from "../tickets/presenter.js";
import * as ticketRepo from "../tickets/repository.js";

/** What a schedule sends. */
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
}

/** Delivers one schedule; throwing marks the schedule ERRO with the error's message. */
export interface ScheduleSender {
  send(delivery: ScheduleDelivery): Promise<ScheduleSendResult>;
}

export class ScheduleSendError extends Error {}

interface ContactRow {
  id: number;
  name: string;
  is_group: boolean;
  whatsapp_id: number | null;
}

/** The connection to use: the chosen one, else the contact's, else its latest ticket's, else the company default. */
async function resolveWhatsapp(ctx: AppContext, companyId: number, contact: ContactRow, chosen: number | null): Promise<number> {
  const row = await ctx.sql.maybe<{ id: number }>(
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
 * The default sender: the message goes through the messaging send path (the connection's driver, then
 * the message row, the ticket's last message and the appMessage event), on the contact's ticket that
 * is not closed, or a new one opened for the schedule's author (pending when the author is gone).
 */
export function sendScheduledMessage(ctx: AppContext): ScheduleSender["send"] {
  return async (d) => {
    const contact = await ctx.sql.maybe<ContactRow>("SELECT id, name, is_group, whatsapp_id FROM contacts WHERE company_id = $1 AND id = $2", [
      d.companyId,
      d.contactId,
    ]);
    if (!contact) throw new ScheduleSendError("Contato não encontrado");
    const whatsappId = await resolveWhatsapp(ctx, d.companyId, contact, d.whatsappId);
    // Refuse before opening a ticket when the connection cannot send (the job waits for it: connection-wait.ts).
    await requireConnectionReady(ctx, d.companyId, whatsappId);
    const author = d.userId
      ? await ctx.sql.maybe<{ id: number }>("SELECT id FROM users WHERE company_id = $1 AND id = $2", [d.companyId, d.userId])
      : null;

    let ticketId = (await ticketRepo.findActiveTicket(ctx.sql, d.companyId, contact.id, whatsappId))?.id ?? null;
    if (ticketId === null) {
      ticketId = await ticketRepo.insertTicketIfNone(ctx.sql, {
        companyId: d.companyId,
        contactId: contact.id,
        whatsappId,
        status: author ? "open" : "pending",
        userId: author?.id ?? null,
        queueId: null,
        isGroup: contact.is_group,
        originFromMe: true,
      });
      ticketId ??= (await ticketRepo.findActiveTicket(ctx.sql, d.companyId, contact.id, whatsappId))?.id ?? null;
      if (ticketId === null) throw new ScheduleSendError("Não foi possível abrir o ticket do contato");
      await emitTicketUpdate(ctx, (await ticketRepo.findTicket(ctx.sql, d.companyId, ticketId))!);
    }
    const ticket = (await ticketRepo.findTicket(ctx.sql, d.companyId, ticketId))!;
    const body = applyVariables(d.body, { contactName: contact.name, protocol: ticketProtocol(ticket) });
    const ext = d.media?.path.split(".").pop()?.toLowerCase() ?? "";
    const message = await sendOutgoing(ctx, {
      ticket,
      body,
      userId: author?.id ?? null,
      stored: d.media ? { path: d.media.path, fileName: d.media.name, mimetype: MIME[ext] ?? "image/jpeg" } : undefined,
    });
    return { ticketId: ticket.id, messageId: message.id };
  };
}
