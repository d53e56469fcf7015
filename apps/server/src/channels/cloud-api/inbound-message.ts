import type { MediaType } from "@atende/shared";
import { extensionOf } from "../../core/storage.js";
import type { InboundMessage } from "../driver.js";
import type { GraphClient } from "./graph-client.js";
import { digitsOf } from "./number-state.js";
import { contactKey } from "../../core/phone.js";
import type { CloudContactCard, CloudMedia, CloudMessage, MessagesValue } from "./webhook-types.js";

const MEDIA_KINDS: Record<string, MediaType> = { image: "image", video: "video", audio: "audio", document: "application", sticker: "image" };

/**
 * Who sent a webhook message: their phone number when Meta shares it (with their business-scoped user
 * id alongside, when given), else the business-scoped user id alone (a user with a username). A
 * `user_changed_number` system message speaks for the new number.
 */
export function cloudSender(m: Pick<CloudMessage, "from" | "from_user_id" | "system" | "type">): { from: string; userId?: string } | null {
  const changedTo = m.type === "system" && m.system?.type === "user_changed_number" ? digitsOf(m.system.wa_id ?? m.system.new_wa_id) : "";
  const phone = changedTo || digitsOf(m.from);
  const userId = (changedTo ? m.system?.user_id : m.from_user_id)?.trim() || undefined;
  if (phone) return { from: phone, ...(userId ? { userId } : {}) };
  return userId ? { from: userId } : null;
}

/** The profile names of a delivery's `contacts`, found by the sender's number (any form) or user id. */
export function senderNames(contacts: MessagesValue["contacts"]): (sender: { from: string; userId?: string }) => string {
  const names = new Map<string, string>();
  for (const c of contacts ?? []) {
    const name = c.profile?.name ?? c.profile?.username ?? "";
    if (c.wa_id) names.set(contactKey(c.wa_id), name);
    if (c.user_id) names.set(c.user_id, name);
  }
  return (sender) => (sender.userId ? names.get(sender.userId) : undefined) ?? names.get(contactKey(sender.from)) ?? "";
}

/** The location body of 1-core §3: image|link|description (the Cloud API sends no preview image). */
export function locationBody(l: NonNullable<CloudMessage["location"]>): string {
  const link = `https://maps.google.com/maps?q=${l.latitude ?? 0}%2C${l.longitude ?? 0}&z=17&hl=pt-BR`;
  const description = [l.name, l.address].filter(Boolean).join("\n").replace(/\|/g, " ");
  return `|${link}|${description}`;
}

const vcardEscape = (s: string) => s.replace(/[\r\n]+/g, " ").replace(/([;,])/g, "\\$1");

export function vcardOf(c: CloudContactCard): string {
  const name = c.name?.formatted_name ?? [c.name?.first_name, c.name?.last_name].filter(Boolean).join(" ");
  const lines = ["BEGIN:VCARD", "VERSION:3.0", `FN:${vcardEscape(name)}`];
  if (c.org?.company) lines.push(`ORG:${vcardEscape(c.org.company)}`);
  for (const p of c.phones ?? []) {
    const phone = p.phone ?? p.wa_id ?? "";
    if (!phone) continue;
    lines.push(p.wa_id ? `TEL;type=CELL;waid=${digitsOf(p.wa_id)}:${phone}` : `TEL;type=CELL:${phone}`);
  }
  for (const e of c.emails ?? []) if (e.email) lines.push(`EMAIL:${vcardEscape(e.email)}`);
  lines.push("END:VCARD");
  return lines.join("\n");
}

/**
 * Kinds that change an earlier message instead of being one (reaction, edit, revoke): applied by the
 * webhook to the stored message (domains/webhooks/process-updates.ts).
 */
export const UPDATE_TYPES = new Set(["reaction", "edit", "revoke"]);

/** `request_welcome` is the contact opening the chat for the first time: no content, nothing to show. */
export const IGNORED_TYPES = new Set(["request_welcome"]);

const money = (value: number, currency: string) =>
  /^[A-Z]{3}$/.test(currency) ? new Intl.NumberFormat("pt-BR", { style: "currency", currency }).format(value) : `${currency} ${value.toFixed(2)}`;

/** A catalog order as a readable message: one line per item (quantity, product, unit price), the total and the note. */
export function orderBody(o: NonNullable<CloudMessage["order"]>): string {
  const items = o.product_items ?? [];
  const lines = ["🛒 Pedido"];
  let total = 0;
  const currencies = new Set<string>();
  for (const it of items) {
    const quantity = Number(it.quantity ?? 1);
    const price = Number(it.item_price ?? 0);
    const currency = (it.currency ?? "").toUpperCase();
    currencies.add(currency);
    total += quantity * price;
    lines.push(`${quantity} × ${it.product_retailer_id ?? "?"} — ${money(price, currency)}`);
  }
  if (items.length && currencies.size === 1) lines.push(`Total: ${money(total, [...currencies][0]!)}`);
  if (o.text?.trim()) lines.push(o.text.trim());
  return lines.join("\n");
}

/** JSON text that is an object, or null (Meta documents `response_json` as an object's text). */
function objectOf(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    // eslint-disable-next-line no-restricted-syntax -- not JSON: the caller shows the raw text instead, nothing is lost
  } catch {
    return null;
  }
}

const fieldValue = (v: unknown): string => (Array.isArray(v) ? v.map(fieldValue).join(", ") : v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));

/** A WhatsApp Flow's answer: the submitted fields of `response_json`, one per line (the flow token left out). */
export function flowReplyBody(reply: NonNullable<NonNullable<CloudMessage["interactive"]>["nfm_reply"]>): string {
  const raw = reply.response_json ?? "";
  const fields = objectOf(raw);
  const lines = ["📋 Formulário respondido"];
  if (!fields) {
    if (raw.trim()) lines.push(raw.trim());
    else if (reply.body) lines.push(reply.body);
    return lines.join("\n");
  }
  for (const [key, value] of Object.entries(fields)) if (key !== "flow_token") lines.push(`${key}: ${fieldValue(value)}`);
  return lines.join("\n");
}

export interface ToInboundOptions {
  /** The delivery was tried often enough: a file Meta cannot provide is stored as 'media unavailable'. */
  giveUpMedia?: boolean;
  /** Where a media that is given up is reported (the server's logger). */
  log?: { warn(obj: object, msg: string): void };
}

/**
 * A Cloud API webhook message as the inbound pipeline's message; media is downloaded through the
 * media endpoint with the business's token. Every kind becomes a message (orders and Flow answers as
 * readable text, unknown and error-only ones marked `unsupported`); null only for IGNORED_TYPES, a message naming no sender and
 * for messages without content of their kind.
 */
export async function toInboundMessage(msg: CloudMessage, pushName: string, client: () => GraphClient, opts: ToInboundOptions = {}): Promise<InboundMessage | null> {
  const sender = cloudSender(msg);
  if (!sender) return null;
  const base = {
    providerId: msg.id,
    ...sender,
    pushName,
    quotedProviderId: msg.context?.id,
    timestamp: msg.timestamp && Number(msg.timestamp) > 0 ? new Date(Number(msg.timestamp) * 1000) : undefined,
    ...(msg.referral ? { referral: msg.referral } : {}),
  };
  const unsupported = { ...base, body: "", mediaType: "chat" as const, unsupported: true };
  const kind = MEDIA_KINDS[msg.type];
  if (kind) {
    const media = (msg as unknown as Record<string, CloudMedia | undefined>)[msg.type];
    if (!media?.id) return unsupported;
    const caption = media.caption ?? (msg.type === "document" ? (media.filename?.trim() ?? "") : "");
    let file: Awaited<ReturnType<GraphClient["downloadMedia"]>>;
    try {
      file = await client().downloadMedia(media.id);
    } catch (err) {
      if (!opts.giveUpMedia) throw err;
      opts.log?.warn({ err, mediaId: media.id, messageId: msg.id }, "cloud-api: media unavailable; the message is stored without it");
      return { ...base, body: caption, mediaType: kind, mediaUnavailable: true };
    }
    const mimetype = (media.mime_type ?? file.mimetype).split(";")[0]!.trim();
    const fileName = media.filename?.trim() || `${msg.type}.${extensionOf(undefined, mimetype)}`;
    const body = media.caption ?? (msg.type === "document" ? fileName : "");
    return { ...base, body, mediaType: kind, media: { data: file.data, fileName, mimetype } };
  }
  switch (msg.type) {
    case "text":
      return { ...base, body: msg.text?.body ?? "", mediaType: "chat" };
    case "location":
      return msg.location ? { ...base, body: locationBody(msg.location), mediaType: "locationMessage" } : unsupported;
    case "contacts":
      return msg.contacts?.length ? { ...base, body: msg.contacts.map(vcardOf).join("\n"), mediaType: "vcard" } : unsupported;
    case "interactive": {
      const i = msg.interactive;
      if (i?.nfm_reply) return { ...base, body: flowReplyBody(i.nfm_reply), mediaType: "chat" };
      const body = i?.button_reply?.title ?? i?.list_reply?.title ?? "";
      return body ? { ...base, body, mediaType: "chat" } : unsupported;
    }
    case "button":
      return { ...base, body: msg.button?.text ?? msg.button?.payload ?? "", mediaType: "chat" };
    case "order":
      return msg.order ? { ...base, body: orderBody(msg.order), mediaType: "chat" } : unsupported;
    case "system":
      return msg.system?.body ? { ...base, body: msg.system.body, mediaType: "chat" } : unsupported;
    default:
      if (IGNORED_TYPES.has(msg.type)) return null;
      // `unsupported`, error-only messages (131051, 131060) and types newer than this code
      return unsupported;
  }
}
