import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { sendOutgoing } from "../../domains/messages/send-message.js";
import { applyVariables } from "../../domains/messages/variables.js";
import { emitTicketUpdate } from "../../domains/tickets/events.js";
import { ticketProtocol } from "../../domains/tickets/presenter.js";
import * as ticketRepo from "../../domains/tickets/repository.js";
import * as whatsappRepo from "../../domains/whatsapp/repository.js";
import { CONNECTION_WAIT_MS, connectionReady, connectionRetryDelayMs } from "../connection-wait.js";
import { EXPIRABLE, EXPIRE_JOB, type expirePayload } from "./expiry.js";

/** The connection's farewell text for an expired ticket ("" when none is sent). */
async function farewellFor(ctx: AppContext, row: ticketRepo.TicketRow): Promise<string> {
  if (row.is_group || row.whatsapp_id === null) return "";
  const connection = await whatsappRepo.findWhatsapp(ctx.sql, row.company_id, row.whatsapp_id);
  return connection ? applyVariables(connection.expires_inactive_message, { contactName: row.contact_name, protocol: ticketProtocol(row) }) : "";
}

/**
 * The job: closes the ticket when its due time has come, or waits again for the moved one. When the
 * close comes with a farewell message and the connection cannot send yet (the server just restarted),
 * the close waits for it too, up to CONNECTION_WAIT_MS past the due time, so the customer is told.
 */
export async function expireTicket(ctx: AppContext, p: z.infer<typeof expirePayload>): Promise<void> {
  const { companyId, ticketId } = p;
  const previous = await ticketRepo.findTicket(ctx.sql, companyId, ticketId);
  const awaitsConnection =
    previous !== null && previous.whatsapp_id !== null && (await farewellFor(ctx, previous)).trim() !== "" && !(await connectionReady(ctx, companyId, previous.whatsapp_id));
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
    const waited = Date.now() - t.expires_at.getTime();
    if (awaitsConnection && waited < CONNECTION_WAIT_MS) {
      const retryAt = new Date(Date.now() + connectionRetryDelayMs(waited));
      await ctx.jobs.send(EXPIRE_JOB, p, { startAfter: retryAt });
      await sql.exec("UPDATE tickets SET expire_job_at = $3 WHERE company_id = $1 AND id = $2", [companyId, ticketId, retryAt]);
      ctx.log.info({ companyId, ticketId, whatsappId: previous?.whatsapp_id, waitedMs: waited }, "ticket expiry waits for its connection to send the farewell");
      return false;
    }
    await sql.exec(
      `UPDATE tickets SET status = 'closed', closed_at = now(), chatbot = false, unread_messages = 0, prompt_id = NULL,
              integration_id = NULL, use_integration = false, expires_at = NULL, expire_job_at = NULL, bot_menu_at = NULL, rating_until = NULL, updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [companyId, ticketId],
    );
    return true;
  });
  if (!closed) return;
  const row = (await ticketRepo.findTicket(ctx.sql, companyId, ticketId))!;
  await emitTicketUpdate(ctx, row, previous);
  const text = await farewellFor(ctx, row);
  if (!text.trim()) return;
  // The ticket stays closed whatever happens to the message.
  await sendOutgoing(ctx, { ticket: row, body: text, userId: null }).catch((err: unknown) =>
    ctx.log.warn({ err, companyId, ticketId, whatsappId: row.whatsapp_id }, "expired ticket closed without its farewell message"),
  );
}
