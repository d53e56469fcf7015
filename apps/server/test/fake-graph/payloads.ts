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
  o: { contacts?: { wa_id?: string; name: string; user_id?: string; username?: string }[]; messages?: Record<string, unknown>[]; statuses?: Record<string, unknown>[] },
): Change {
  const value: Record<string, unknown> = {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: phone.display_phone_number.replace(/\D/g, ""), phone_number_id: phone.id },
  };
  // Meta's contacts object: the profile (name, and the username of a user who adopted one), the number's
  // WhatsApp id when Meta shares it, and the business-scoped user id
  if (o.contacts) {
    value.contacts = o.contacts.map((c) => ({
      profile: { name: c.name, ...(c.username ? { username: c.username } : {}) },
      ...(c.wa_id ? { wa_id: c.wa_id } : {}),
      ...(c.user_id ? { user_id: c.user_id } : {}),
    }));
  }
  if (o.messages) value.messages = o.messages;
  if (o.statuses) value.statuses = o.statuses;
  return { field: "messages", value };
}

export function text(from: string, body: string, o: { id?: string; timestamp?: string; contextId?: string; referral?: Record<string, unknown> } = {}) {
  return {
    from,
    id: o.id ?? newWamid(),
    timestamp: o.timestamp ?? nowTs(),
    type: "text",
    text: { body },
    ...(o.contextId ? { context: { from, id: o.contextId } } : {}),
    ...(o.referral ? { referral: o.referral } : {}),
  };
}

export function media(
  from: string,
  type: "image" | "video" | "audio" | "document" | "sticker",
  mediaId: string,
  o: { mimeType: string; caption?: string; filename?: string; id?: string; sha256?: string; voice?: boolean; timestamp?: string },
) {
  return {
    from,
    id: o.id ?? newWamid(),
    timestamp: o.timestamp ?? nowTs(),
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

export function contactsMessage(from: string, name: string, phone: string, ...more: { name: string; phone: string }[]) {
  const card = (n: string, p: string) => ({ name: { formatted_name: n, first_name: n.split(" ")[0] }, phones: [{ phone: p, wa_id: p.replace(/\D/g, ""), type: "CELL" }] });
  return { from, id: newWamid(), timestamp: nowTs(), type: "contacts", contacts: [card(name, phone), ...more.map((c) => card(c.name, c.phone))] };
}

export function buttonReply(from: string, id: string, title: string) {
  return { from, id: newWamid(), timestamp: nowTs(), type: "interactive", interactive: { type: "button_reply", button_reply: { id, title } } };
}

export function listReply(from: string, id: string, title: string, description = "") {
  return { from, id: newWamid(), timestamp: nowTs(), type: "interactive", interactive: { type: "list_reply", list_reply: { id, title, description } } };
}

/**
 * A reaction; `emoji` omitted when the contact removes it.
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/reaction
 */
export function reaction(from: string, messageId: string, emoji?: string, o: { timestamp?: string } = {}) {
  return { from, id: newWamid(), timestamp: o.timestamp ?? nowTs(), type: "reaction", reaction: { message_id: messageId, ...(emoji !== undefined ? { emoji } : {}) } };
}

/**
 * A catalog order (Meta's example values: catalog 194836987003835, product di9ozbzfi4, 7.99 USD × 2).
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/order
 */
export function order(from: string, items: { product_retailer_id: string; quantity: number; item_price: number; currency: string }[], text?: string) {
  return { from, id: newWamid(), timestamp: nowTs(), type: "order", order: { catalog_id: "194836987003835", ...(text ? { text } : {}), product_items: items } };
}

/**
 * A WhatsApp Flow's answer: `response_json` is the submitted fields as a JSON string, with the flow token.
 * https://developers.facebook.com/docs/whatsapp/flows/reference/responsemsgwebhook
 */
export function flowReply(from: string, fields: Record<string, unknown>, contextId = "gBGGEiRVVgBPAgm7FUgc73noXjo") {
  return {
    context: { from: "16315558151", id: contextId },
    from,
    id: newWamid(),
    type: "interactive",
    interactive: { type: "nfm_reply", nfm_reply: { name: "flow", body: "Sent", response_json: JSON.stringify({ flow_token: "<FLOW_TOKEN>", ...fields }) } },
    timestamp: nowTs(),
  };
}

/**
 * A type the Cloud API cannot deliver (e.g. a poll): error 131051 and the unsupported type.
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/unsupported
 */
export function unsupported(from: string, unsupportedType = "poll_creation") {
  return {
    from,
    id: newWamid(),
    timestamp: nowTs(),
    errors: [{ code: 131051, title: "Message type unknown", message: "Message type unknown", error_data: { details: "Message type is currently not supported." } }],
    type: "unsupported",
    unsupported: { type: unsupportedType },
  };
}

/**
 * The contact edited a message (coexistence numbers): the original's id and the new content.
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/edit
 */
export function edit(from: string, originalId: string, body: string) {
  return { from, id: newWamid(), timestamp: nowTs(), type: "edit", edit: { original_message_id: originalId, message: { type: "text", text: { body } } } };
}

/**
 * The contact deleted a message for everyone (coexistence numbers).
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/revoke
 */
export function revoke(from: string, originalId: string) {
  return { from, id: newWamid(), timestamp: nowTs(), type: "revoke", revoke: { original_message_id: originalId } };
}

/**
 * The `referral` of a message sent from a click-to-WhatsApp ad (Meta's example values).
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/messages/text
 */
export const adReferral = {
  source_url: "https://fb.me/3cr4Wqqkv",
  source_id: "120226305854810726",
  source_type: "ad",
  body: "Chat with us for 20% off!",
  headline: "Chat with us",
  media_type: "image",
  image_url: "https://scontent.xx.fbcdn.net/v/t45.1600-4/example.jpg",
  ctwa_clid: "Aff-n8ZTODiE79d22KtAwQKj9e_mIEOOj27vDVwFjN80dp4_0N",
  welcome_message: { text: "Hi there! Let us know how we can help!" },
};

export function status(id: string, value: "sent" | "delivered" | "read" | "played" | "failed", recipient: string, errors?: { code: number; title: string; details?: string }[]) {
  return {
    id,
    status: value,
    timestamp: nowTs(),
    recipient_id: recipient,
    ...(value !== "failed" && value !== "read" && value !== "played"
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

/** A text from a user with a username: no phone number (`from`), only the business-scoped user id (`from_user_id`). */
export function textFromUser(userId: string, body: string, o: { phone?: string } = {}) {
  return { ...(o.phone ? { from: o.phone } : {}), from_user_id: userId, id: newWamid(), timestamp: nowTs(), type: "text", text: { body } };
}

/** Meta's `user_changed_number` system message (it comes without a contacts array). */
export function numberChanged(from: string, to: string, name = "Cliente") {
  return {
    from,
    id: newWamid(),
    timestamp: nowTs(),
    type: "system",
    system: { body: `User ${name} changed from ${from} to ${to}`, wa_id: to, type: "user_changed_number" },
  };
}
