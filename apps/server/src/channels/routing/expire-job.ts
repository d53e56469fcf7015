import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { sendOutgoing } from "../../domains/messages/send-message.js";
import { applyVariables } from "../../domains/messages/variables.js";
import { emitTicketUpdate } from "../../domains/tickets/events.js";
import { ticketProtocol } from "../../domains/tickets/presenter.js";
import * as ticketRepo from "../../domains/tickets/repository.js";
import * as whatsappRepo from "../../domains/whatsapp/repository.js";
import { EXPIRABLE, EXPIRE_JOB, type expirePayload } from "./expiry.js";

/** The job: closes the ticket when its due time has come, or waits again for the moved one. */
export async function expireTicket(ctx: AppContext, p: z.infer<typeof expirePayload>): Promise<void> {
  const { companyId, ticketId } = p;
  const previous = await ticketRepo.findTicket(ctx.sql, companyId, ticketId);
  const closed = await ctx.sql.tx(async (sql) => {
    const t = await sql.maybe<{ status: string; expires_at: Date | null; due: boolean }>(
      "SELECT status, expires_at, expires_at <= now() AS due FROM tickets WHERE company_id = $1 AND id = $2 FOR UPDATE",
      [companyId, ticketId],
    );
    if (!t) return false;
    if (t.status === "closed" || t.expires_at === null) {
      await sql.exec("UPDATE tickets SET expire_job_at = NULL WHERE company_id = $1 AND id = $2", [companyId, ticketId]);
      return false;
    }
    if (!t.due) {
      await ctx.jobs.send(EXPIRE_JOB, p, { startAfter: t.expires_at });
      await sql.exec("UPDATE tickets SET expire_job_at = $3 WHERE company_id = $1 AND id = $2", [companyId, ticketId, t.expires_at]);
      return false;
    }
    if (!EXPIRABLE.includes(t.status)) {
      await sql.exec("UPDATE tickets SET expire_job_at = NULL, expires_at = NULL WHERE company_id = $1 AND id = $2", [companyId, ticketId]);
      return false;
    }
    await sql.exec(
      `UPDATE tickets SET status = 'closed', closed_at = now(), chatbot = false, unread_messages = 0, prompt_id = NULL,
              integration_id = NULL, use_integration = false, expires_at = NULL, expire_job_at = NULL, bot_menu_at = NULL, rating_until = NULL, updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [companyId, ticketId],
    );
    await ticketRepo.trackFinish(sql, companyId, ticketId);
    return true;
  });
  if (!closed) return;
  const row = (await ticketRepo.findTicket(ctx.sql, companyId, ticketId))!;
  await emitTicketUpdate(ctx, row, previous);
  if (row.is_group || row.whatsapp_id === null) return;
  const connection = await whatsappRepo.findWhatsapp(ctx.sql, companyId, row.whatsapp_id);
  const text = connection ? applyVariables(connection.expires_inactive_message, { contactName: row.contact_name, protocol: ticketProtocol(row) }) : "";
  if (!text.trim()) return;
  // The ticket stays closed whatever happens to the message.
  await sendOutgoing(ctx, { ticket: row, body: text, userId: null }).catch(() => undefined);
}
