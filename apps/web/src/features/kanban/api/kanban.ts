import type { Tag, Ticket } from "@atende/shared";
import { api } from "../../../lib/api";

export const kanbanKeys = {
  all: ["kanban"] as const,
  lanes: ["kanban", "lanes"] as const,
  tickets: (queueIds: number[]) => ["kanban", "tickets", queueIds] as const,
};

/** The kanban tags, one lane each (GET /tags/kanban → { lista }). */
export async function fetchKanbanTags(): Promise<Tag[]> {
  const res = await api<{ lista: Tag[] }>("/tags/kanban");
  return res.lista;
}

/** Open tickets of the user's queues with their tags. */
export async function fetchKanbanTickets(queueIds: number[]): Promise<Ticket[]> {
  // Without queues of their own the user gets every ticket they may see (admins: all).
  const res = await api<Ticket[] | { tickets: Ticket[] }>("/ticket/kanban", { query: { queueIds: queueIds.length > 0 ? queueIds : undefined } });
  return Array.isArray(res) ? res : res.tickets;
}

export function removeTicketTags(ticketId: number): Promise<unknown> {
  return api(`/ticket-tags/${ticketId}`, { method: "DELETE" });
}

export function addTicketTag(ticketId: number, tagId: number): Promise<unknown> {
  return api(`/ticket-tags/${ticketId}/${tagId}`, { method: "PUT" });
}

/** A new lane: a tag shown on the kanban (POST /tags with kanban 1). */
export function createLane(input: { name: string; color: string }): Promise<Tag> {
  return api<Tag>("/tags", { method: "POST", body: { ...input, kanban: 1 } });
}

/** Removes a lane: the tag stays, it just stops being a kanban column (PUT /tags/:id kanban 0). */
export function removeLane(tagId: number): Promise<Tag> {
  return api<Tag>(`/tags/${tagId}`, { method: "PUT", body: { kanban: 0 } });
}
