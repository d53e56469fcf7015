import { SESSION_STATUSES, type SessionStatus, type Whatsapp, type WhatsappSession } from "@atende/shared";
import type { WhatsappRow } from "./repository.js";

const asStatus = (s: string): SessionStatus => ((SESSION_STATUSES as readonly string[]).includes(s) ? (s as SessionStatus) : "DISCONNECTED");

/** The Messages API token is never stored; admins reading one connection see its hint (`withTokenHint`). */
export function presentWhatsapp(row: WhatsappRow, withTokenHint = false): Whatsapp {
  return {
    id: row.id,
    name: row.name,
    status: asStatus(row.status),
    qrcode: row.status === "PAIRING" ? "" : row.qrcode,
    ...(row.status === "PAIRING" && row.qrcode ? { pairingCode: row.qrcode } : {}),
    retries: row.retries,
    number: row.number,
    phoneNumberStr: row.number,
    provider: row.provider,
    isOfficial: row.is_official,
    isDefault: row.is_default,
    queues: row.queues,
    transferQueueId: row.transfer_queue_id,
    greetingMessage: row.greeting_message,
    complationMessage: row.complation_message,
    outOfHoursMessage: row.out_of_hours_message,
    ratingMessage: row.rating_message,
    expiresInactiveMessage: row.expires_inactive_message,
    expiresTicket: row.expires_ticket,
    timeUseBotQueues: row.time_use_bot_queues,
    maxUseBotQueues: row.max_use_bot_queues,
    promptId: row.prompt_id,
    integrationId: row.integration_id,
    ...(withTokenHint ? { tokenHint: row.token_hint } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** While PAIRING the `qrcode` column holds the pairing code (a session shows one or the other). */
export function presentSession(row: Pick<WhatsappRow, "id" | "status" | "qrcode">): WhatsappSession {
  if (row.status === "PAIRING") return { id: row.id, status: "PAIRING", qrcode: "", ...(row.qrcode ? { pairingCode: row.qrcode } : {}) };
  return { id: row.id, status: asStatus(row.status), qrcode: row.status === "CONNECTED" ? "" : row.qrcode };
}
