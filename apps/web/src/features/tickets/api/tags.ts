import { api } from "../../../lib/api";
import type { TagRef } from "../types";

export function syncTicketTags(ticketId: number, tags: TagRef[]): Promise<unknown> {
  return api("/tags/sync", { method: "POST", body: { ticketId, tags: tags.map((t) => ({ id: t.id, name: t.name })) } });
}

export function createTag(name: string): Promise<TagRef> {
  return api<TagRef>("/tags", { method: "POST", body: { name } });
}
