import { ApiError } from "./api";

export interface ExistingTicket {
  id: number;
  uuid: string;
}

/** The contact's existing ticket that a refused creation (ERR_OTHER_OPEN_TICKET) carries, or null for any other error. */
export function otherOpenTicket(err: unknown): ExistingTicket | null {
  if (!(err instanceof ApiError) || err.code !== "ERR_OTHER_OPEN_TICKET") return null;
  const ticket = err.body.ticket as { id?: unknown; uuid?: unknown } | undefined;
  if (!ticket || typeof ticket.id !== "number" || typeof ticket.uuid !== "string") return null;
  return { id: ticket.id, uuid: ticket.uuid };
}
