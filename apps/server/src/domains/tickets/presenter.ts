import type { Ticket } from "@atende/shared";
import type { TicketRow } from "./repository.js";

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** The ticket's protocol: creation day (YYYYMMDD) followed by its id. */
export function ticketProtocol(row: { id: number; created_at: Date | string }): string {
  return `${iso(row.created_at).slice(0, 10).replace(/-/g, "")}${row.id}`;
}

export function presentTicket(row: TicketRow): Ticket {
  return {
    id: row.id,
    uuid: row.uuid,
    status: row.status,
    userId: row.user_id,
    user: row.user_id !== null && row.user_name !== null ? { id: row.user_id, name: row.user_name } : null,
    queueId: row.queue_id,
    queue: row.queue_id !== null && row.queue_name !== null ? { id: row.queue_id, name: row.queue_name, color: row.queue_color ?? "" } : null,
    transferQueueId: row.transfer_queue_id,
    whatsappId: row.whatsapp_id,
    whatsapp:
      row.whatsapp_id !== null && row.whatsapp_name !== null
        ? {
            id: row.whatsapp_id,
            name: row.whatsapp_name,
            status: row.whatsapp_status ?? "DISCONNECTED",
            isOfficial: Boolean(row.whatsapp_is_official),
            provider: row.whatsapp_provider ?? "sandbox",
          }
        : null,
    contactId: row.contact_id,
    contact: {
      id: row.contact_id,
      name: row.contact_name,
      number: row.contact_number,
      profilePicUrl: row.contact_profile_pic_url,
      isGroup: row.contact_is_group,
    },
    tags: row.tags,
    lastMessage: row.last_message,
    lastMessageAt: row.last_message_at ? iso(row.last_message_at) : null,
    lastMessageAck: row.last_message_from_me ? row.last_message_ack : null,
    unreadMessages: row.unread_messages,
    isGroup: row.is_group,
    chatbot: row.chatbot,
    fromMe: row.from_me,
    originFromMe: row.origin_from_me,
    useIntegration: row.use_integration,
    promptId: row.prompt_id,
    integrationId: row.integration_id,
    code: ticketProtocol(row),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
