import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";
import { sendOutgoing } from "../../domains/messages/send-message.js";
import { applyVariables } from "../../domains/messages/variables.js";
import { settingEnabled } from "../../domains/tickets/company-settings.js";
import { ticketProtocol } from "../../domains/tickets/presenter.js";
import type { TicketRow } from "../../domains/tickets/repository.js";
import * as whatsappRepo from "../../domains/whatsapp/repository.js";

/** How long a closed ticket waits for its 1-5 rating after the rating message (documented in docs/architecture.md). */
export const RATING_WINDOW_HOURS = 24;

/**
 * After an agent (or admin) finishes a ticket: the connection's completion message, then, when the
 * company's userRating setting is enabled, the ticket had an agent and the connection has a rating
 * message, the rating message; the ticket then waits RATING_WINDOW_HOURS for a 1-5 reply. This is the
 * only place that sends them (the tickets' finish calls it once per close). A message that cannot be
 * sent (connection down) does not undo the close.
 */
export async function afterAgentClose(ctx: AppContext, row: TicketRow): Promise<void> {
  if (row.is_group || row.whatsapp_id === null || row.status !== "closed") return;
  const connection = await whatsappRepo.findWhatsapp(ctx.sql, row.company_id, row.whatsapp_id);
  if (!connection) return;
  const vars = { contactName: row.contact_name, protocol: ticketProtocol(row) };
  const completion = applyVariables(connection.complation_message, vars);
  const notSent = (what: string) => (err: unknown) => {
    ctx.log.warn({ err, companyId: row.company_id, ticketId: row.id, whatsappId: row.whatsapp_id }, `${what} not sent; the ticket stays closed`);
    return null;
  };
  if (completion.trim()) await sendOutgoing(ctx, { ticket: row, body: completion, userId: null }).catch(notSent("completion message"));

  const rating = applyVariables(connection.rating_message, vars);
  if (!rating.trim() || row.user_id === null || !(await settingEnabled(ctx.sql, row.company_id, "userRating"))) return;
  const sent = await sendOutgoing(ctx, { ticket: row, body: rating, userId: null }).catch(notSent("rating message"));
  if (!sent) return;
  await ctx.sql.exec(
    "UPDATE tickets SET rating_until = now() + make_interval(hours => $3) WHERE company_id = $1 AND id = $2 AND status = 'closed'",
    [row.company_id, row.id, RATING_WINDOW_HOURS],
  );
}

/**
 * An incoming message from a contact without an open ticket: when their last closed ticket on the
 * connection is waiting for a rating, a reply of 1 to 5 is stored as its rating (returns the ticket);
 * any other message ends the wait and goes on as a normal message (a new ticket). Runs inside the
 * inbound transaction, under the conversation's lock.
 */
export async function takeRatingReply(
  sql: Sql,
  companyId: number,
  contactId: number,
  whatsappId: number,
  body: string,
): Promise<{ ticketId: number; rate: number } | null> {
  const waiting = await sql.maybe<{ id: number; user_id: number | null; open: boolean }>(
    `SELECT id, user_id, rating_until > now() AS open FROM tickets
      WHERE company_id = $1 AND contact_id = $2 AND whatsapp_id = $3 AND rating_until IS NOT NULL AND status = 'closed'
      ORDER BY id DESC LIMIT 1 FOR UPDATE`,
    [companyId, contactId, whatsappId],
  );
  if (!waiting) return null;
  await sql.exec("UPDATE tickets SET rating_until = NULL WHERE company_id = $1 AND id = $2", [companyId, waiting.id]);
  const m = /^\s*([1-5])\s*$/.exec(body);
  if (!waiting.open || !m) return null;
  const rate = Number(m[1]);
  await sql.exec(
    `INSERT INTO ticket_ratings (company_id, ticket_id, user_id, rate) VALUES ($1, $2, $3, $4)
     ON CONFLICT (company_id, ticket_id) DO NOTHING`,
    [companyId, waiting.id, waiting.user_id, rate],
  );
  return { ticketId: waiting.id, rate };
}
