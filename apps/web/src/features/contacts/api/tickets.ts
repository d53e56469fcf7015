import type { Ticket, Whatsapp } from "@atende/shared";
import { api, ApiError } from "../../../lib/api";

export const connectionKeys = { all: ["contacts", "connections"] as const };

/** The company's connections (the new-ticket dialog offers only the CONNECTED ones). */
export function fetchConnections(): Promise<Whatsapp[]> {
  return api<Whatsapp[]>("/whatsapp", { query: { session: 0 } });
}

export interface NewTicket {
  contactId: number;
  userId: number;
  whatsappId?: number;
  message?: string;
}

/** POST /tickets; when the contact already has an open ticket, that ticket is the answer. */
export async function openTicket(input: NewTicket): Promise<Pick<Ticket, "id" | "uuid">> {
  try {
    return await api<Ticket>("/tickets", { method: "POST", body: { ...input, status: "open" } });
  } catch (err) {
    const existing = err instanceof ApiError && err.code === "ERR_OTHER_OPEN_TICKET" ? existingTicket(err.body) : null;
    if (existing) return existing;
    throw err;
  }
}

function existingTicket(body: Record<string, unknown>): Pick<Ticket, "id" | "uuid"> | null {
  const ticket = body.ticket as { id?: number; uuid?: string } | undefined;
  const uuid = ticket?.uuid ?? (body.ticketUuid as string | undefined) ?? (body.uuid as string | undefined);
  return uuid ? { id: Number(ticket?.id ?? body.ticketId ?? 0), uuid } : null;
}
