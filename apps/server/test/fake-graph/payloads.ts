import { newWamid } from "./server.js";

/** Builders of Cloud API webhook payloads in Meta's documented shapes. */

export const nowTs = (offsetSeconds = 0) => String(Math.floor(Date.now() / 1000) + offsetSeconds);

export interface PhoneRef {
  id: string;
  display_phone_number: string;
}

export interface Change {
  field: string;
  value: Record<string, unknown>;
}

export function webhook(wabaId: string, changes: Change[][]): { object: string; entry: { id: string; changes: Change[] }[] } {
  return { object: "whatsapp_business_account", entry: changes.map((c) => ({ id: wabaId, changes: c })) };
}

export function messagesChange(
  phone: PhoneRef,
  o: { contacts?: { wa_id: string; name: string }[]; messages?: Record<string, unknown>[]; statuses?: Record<string, unknown>[] },
): Change {
  const value: Record<string, unknown> = {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: phone.display_phone_number.replace(/\D/g, ""), phone_number_id: phone.id },
  };
  if (o.contacts) value.contacts = o.contacts.map((c) => ({ profile: { name: c.name }, wa_id: c.wa_id }));
  if (o.messages) value.messages = o.messages;
  if (o.statuses) value.statuses = o.statuses;
  return { field: "messages", value };
}

export function text(from: string, body: string, o: { id?: string; timestamp?: string; contextId?: string } = {}) {
  return {
    from,
    id: o.id ?? newWamid(),
    timestamp: o.timestamp ?? nowTs(),
    type: "text",
    text: { body },
    ...(o.contextId ? { context: { from, id: o.contextId } } : {}),
  };
}

export function media(
  from: string,
  type: "image" | "video" | "audio" | "document" | "sticker",
  mediaId: string,
  o: { mimeType: string; caption?: string; filename?: string; id?: string; sha256?: string; voice?: boolean },
) {
  return {
    from,
    id: o.id ?? newWamid(),
    timestamp: nowTs(),
    type,
    [type]: {
      id: mediaId,
      mime_type: o.mimeType,
      ...(o.sha256 ? { sha256: o.sha256 } : {}),
      ...(o.caption !== undefined ? { caption: o.caption } : {}),
      ...(o.filename !== undefined ? { filename: o.filename } : {}),
      ...(o.voice !== undefined ? { voice: o.voice } : {}),
    },
  };
}

export function location(from: string, l: { latitude: number; longitude: number; name?: string; address?: string }) {
  return { from, id: newWamid(), timestamp: nowTs(), type: "location", location: l };
}

export function contactsMessage(from: string, name: string, phone: string) {
  return {
    from,
    id: newWamid(),
    timestamp: nowTs(),
    type: "contacts",
    contacts: [{ name: { formatted_name: name, first_name: name.split(" ")[0] }, phones: [{ phone, wa_id: phone.replace(/\D/g, ""), type: "CELL" }] }],
  };
}

export function buttonReply(from: string, id: string, title: string) {
  return { from, id: newWamid(), timestamp: nowTs(), type: "interactive", interactive: { type: "button_reply", button_reply: { id, title } } };
}

export function listReply(from: string, id: string, title: string, description = "") {
  return { from, id: newWamid(), timestamp: nowTs(), type: "interactive", interactive: { type: "list_reply", list_reply: { id, title, description } } };
}

export function reaction(from: string, messageId: string, emoji: string) {
  return { from, id: newWamid(), timestamp: nowTs(), type: "reaction", reaction: { message_id: messageId, emoji } };
}

export function status(id: string, value: "sent" | "delivered" | "read" | "failed", recipient: string, errors?: { code: number; title: string; details?: string }[]) {
  return {
    id,
    status: value,
    timestamp: nowTs(),
    recipient_id: recipient,
    ...(value !== "failed" && value !== "read"
      ? { conversation: { id: "conv1", origin: { type: "service" } }, pricing: { billable: true, pricing_model: "CBP", category: "service" } }
      : {}),
    ...(errors ? { errors: errors.map((e) => ({ code: e.code, title: e.title, message: e.title, error_data: { details: e.details ?? "" } })) } : {}),
  };
}

export function qualityUpdate(displayPhoneNumber: string, event: string, currentLimit: string): Change {
  return { field: "phone_number_quality_update", value: { display_phone_number: displayPhoneNumber, event, current_limit: currentLimit } };
}

export function accountUpdate(value: Record<string, unknown>): Change {
  return { field: "account_update", value };
}
