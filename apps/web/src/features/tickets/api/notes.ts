import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { TicketNote } from "../types";

export const notesQuery = (ticketId: number, contactId: number) =>
  queryOptions({
    queryKey: ["ticket-notes", ticketId, contactId] as const,
    queryFn: () => api<TicketNote[]>("/ticket-notes/list", { query: { ticketId, contactId } }),
  });

export function addNote(data: { note: string; ticketId: number; contactId: number }): Promise<TicketNote> {
  return api<TicketNote>("/ticket-notes", { method: "POST", body: data });
}

export function deleteNote(id: number): Promise<void> {
  return api<void>(`/ticket-notes/${id}`, { method: "DELETE" });
}
