import type { Contact, Ticket, TicketsPage, Whatsapp } from "@atende/shared";
import { api } from "../../../lib/api";

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

/** POST /tickets (status open). A contact with an unclosed ticket answers ERR_OTHER_OPEN_TICKET carrying that ticket. */
export function openTicket(input: NewTicket): Promise<Pick<Ticket, "id" | "uuid">> {
  return api<Ticket>("/tickets", { method: "POST", body: { ...input, status: "open" } });
}

/** The contact's unclosed ticket the user can see (searched by the contact's number), or null. */
export async function findOpenTicket(contact: Pick<Contact, "id" | "number">, signal?: AbortSignal): Promise<Pick<Ticket, "id" | "uuid"> | null> {
  const page = await api<TicketsPage>("/tickets", { signal, query: { searchParam: contact.number, showAll: "true" } });
  const found = page.tickets.find((t) => t.contactId === contact.id && t.status !== "closed");
  return found ? { id: found.id, uuid: found.uuid } : null;
}
