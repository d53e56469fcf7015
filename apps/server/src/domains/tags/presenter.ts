import type { Tag } from "@atende/shared";
import type { TagRow } from "./repository.js";

export function presentTag(row: TagRow): Tag {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    kanban: row.kanban,
    userId: row.user_id,
    ticketsCount: row.tickets_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
