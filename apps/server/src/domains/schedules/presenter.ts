import type { Schedule } from "@atende/shared";
import type { ScheduleRow } from "./repository.js";

export function presentSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    body: row.body,
    contactId: row.contact_id,
    contact: {
      id: row.contact_id,
      name: row.contact_name,
      number: row.contact_number,
      profilePicUrl: row.contact_profile_pic_url,
      isGroup: row.contact_is_group,
    },
    sendAt: row.send_at.toISOString(),
    sentAt: row.sent_at ? row.sent_at.toISOString() : null,
    status: row.status,
    error: row.error,
    mediaPath: row.media_path ? `/schedules/${row.id}/media` : null,
    mediaName: row.media_name,
    userId: row.user_id,
    user: row.user_id !== null && row.user_name !== null ? { id: row.user_id, name: row.user_name } : null,
    whatsappId: row.whatsapp_id,
    ticketId: row.ticket_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
