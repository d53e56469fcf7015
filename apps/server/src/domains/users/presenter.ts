import { isOnline, type User, type UserListItem } from "@atende/shared";
import type { UserRow } from "./repository.js";

/** `now`: the instant presence is judged at (the one rule, isOnline, the dashboard uses too). */
export function presentUser(row: UserRow, now = new Date()): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    super: row.super,
    companyId: row.company_id,
    allTicket: row.all_ticket,
    whatsappId: row.whatsapp_id,
    online: isOnline({ online: row.online, lastSeenAt: row.last_seen_at }, now),
    queues: row.queues,
    createdAt: row.created_at.toISOString(),
  };
}

export function presentUserListItem(row: { id: number; name: string }): UserListItem {
  return { id: row.id, name: row.name };
}
