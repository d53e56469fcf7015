import type { User, UserListItem } from "@atende/shared";
import type { UserRow } from "./repository.js";

export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    super: row.super,
    companyId: row.company_id,
    allTicket: row.all_ticket,
    whatsappId: row.whatsapp_id,
    online: row.online,
    queues: row.queues,
    createdAt: row.created_at.toISOString(),
  };
}

export function presentUserListItem(row: { id: number; name: string }): UserListItem {
  return { id: row.id, name: row.name };
}
