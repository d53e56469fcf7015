import { ApiError } from "../../../lib/api";
import type { Ticket } from "../types";

/** The current ticket a lost race (409 ERR_TICKET_ALREADY_CHANGED) carries, or null for any other error. */
export function ticketFromConflict(err: unknown): Ticket | null {
  if (!(err instanceof ApiError) || err.status !== 409 || err.code !== "ERR_TICKET_ALREADY_CHANGED") return null;
  const ticket = err.body.ticket;
  return ticket && typeof ticket === "object" ? (ticket as Ticket) : null;
}
