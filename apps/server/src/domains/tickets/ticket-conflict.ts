import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { presentTicket } from "./presenter.js";
import type { TicketRow } from "./repository.js";
import { canSeeTicketRow, visibilityFor } from "./visibility.js";

/**
 * A transition is decided on the ticket as the request first read it. Two agents who press
 * "accept" at the same moment both read it pending; the row lock makes the second wait, and this
 * check (on the locked, current row) makes it lose instead of overwriting the winner and sending
 * the customer a second greeting.
 */
export function changedSince(seen: TicketRow, now: Pick<TicketRow, "status" | "user_id" | "queue_id" | "whatsapp_id">): boolean {
  return seen.status !== now.status || seen.user_id !== now.user_id || seen.queue_id !== now.queue_id || seen.whatsapp_id !== now.whatsapp_id;
}

/** Thrown inside the transaction (which it rolls back) when the ticket changed since it was read. */
export class StaleTicket extends Error {
  constructor(readonly now: TicketRow) {
    super("ticket changed since it was read");
  }
}

/**
 * The loser's answer: 409 with the ticket as it is now, so the client can show it; without it when the
 * change (a transfer to another queue) took the ticket out of the actor's sight.
 */
export async function ticketAlreadyChanged(ctx: AppContext, actor: RequestActor, now: TicketRow): Promise<AppError> {
  const visible = canSeeTicketRow(await visibilityFor(ctx.sql, actor), now);
  return new AppError(
    "ERR_TICKET_ALREADY_CHANGED",
    "Este ticket acabou de ser alterado por outra pessoa. Veja a situação atual.",
    visible ? { ticket: presentTicket(now) } : {},
  );
}
