import { api } from "../../../lib/api";
import type { TicketAction } from "@atende/shared";
import type { Ticket, TicketsPage, TicketSyncResponse, TicketUpdateResponse } from "../types";

export interface TicketListParams {
  status?: string;
  searchParam?: string;
  pageNumber?: number;
  showAll?: boolean;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
  origins?: ("proactive" | "reactive")[];
  withUnreadMessages?: boolean;
}

export const ticketKeys = {
  all: ["tickets"] as const,
  one: (idOrUuid: string | number) => ["tickets", "one", String(idOrUuid)] as const,
};

export function fetchTickets(p: TicketListParams, signal?: AbortSignal): Promise<TicketsPage> {
  return api<TicketsPage>("/tickets", {
    signal,
    query: {
      status: p.status,
      searchParam: p.searchParam,
      pageNumber: p.pageNumber ?? 1,
      showAll: p.showAll === undefined ? undefined : String(p.showAll),
      queueIds: p.queueIds,
      tags: p.tags?.length ? p.tags : undefined,
      users: p.users?.length ? p.users : undefined,
      origins: p.origins?.length ? p.origins : undefined,
      withUnreadMessages: p.withUnreadMessages ? "true" : undefined,
    },
  });
}

export function fetchTicket(idOrUuid: string | number): Promise<Ticket> {
  return api<Ticket>(`/tickets/${idOrUuid}`);
}

export interface TicketUpdate {
  action?: TicketAction;
  status?: Ticket["status"];
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
}

export function updateTicket(id: number, data: TicketUpdate): Promise<TicketUpdateResponse> {
  return api<TicketUpdateResponse>(`/tickets/${id}`, { method: "PUT", body: data });
}

export function deleteTicket(id: number): Promise<void> {
  return api<void>(`/tickets/${id}`, { method: "DELETE" });
}

export function markTicketRead(id: number): Promise<void> {
  return api<void>(`/tickets/${id}/read`, { method: "POST" });
}

export interface NewTicketInput {
  /** An existing contact, or a phone number (the contact is found or created). */
  contactId?: number;
  number?: string;
  whatsappId: number;
  userId: number;
  message: string;
  file?: File | null;
}

export function createTicket(input: NewTicketInput): Promise<Ticket> {
  const form = new FormData();
  if (input.contactId !== undefined) form.append("contactId", String(input.contactId));
  if (input.number !== undefined) form.append("number", input.number);
  form.append("whatsappId", String(input.whatsappId));
  form.append("userId", String(input.userId));
  form.append("message", input.message);
  if (input.file) form.append("file", input.file);
  return api<Ticket>("/tickets", { method: "POST", body: form });
}

export function syncTickets(q: { since?: string; until?: string; status?: string }, signal?: AbortSignal): Promise<TicketSyncResponse> {
  return api<TicketSyncResponse>("/tickets/sync", { query: q, signal });
}
