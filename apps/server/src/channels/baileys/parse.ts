import { extractMessageContent, getContentType, proto, type WAMessage } from "baileys";
import type { MediaType } from "@atende/shared";

/** A media attachment still to be downloaded from WhatsApp. */
export interface PendingMedia {
  mimetype: string;
  /** Display name only; storage keys never derive from it. */
  fileName: string;
}

export type ParsedMessage =
  | { kind: "message"; body: string; mediaType: MediaType; media?: PendingMedia; quotedProviderId?: string }
  | { kind: "edit"; targetId: string; body: string }
  | { kind: "revoke"; targetId: string }
  | { kind: "ignore" };

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "application/pdf": "pdf",
};

const baseMime = (mimetype: string) => mimetype.split(";")[0]!.trim().toLowerCase();

/** A display file name for media that has none (photos, voice notes): "<kind>-<id>.<ext>". */
export function defaultFileName(kind: string, providerId: string, mimetype: string): string {
  const ext = EXT[baseMime(mimetype)] ?? (baseMime(mimetype).split("/")[1] ?? "bin").replace(/[^a-z0-9]/g, "").slice(0, 8);
  const id = providerId.replace(/[^A-Za-z0-9]/g, "").slice(0, 24);
  return `${kind}-${id}.${ext || "bin"}`;
}

/** A sender-provided file name, kept for display: no path parts, no control characters, 200 chars. */
export function safeDisplayName(name: string | null | undefined, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = (name ?? "").split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 200);
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : fallback;
}

/** The location body of §3: `image|link|description` (thumbnail data URL or '', map link, name/address). */
export function locationBody(loc: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage): string {
  const lat = Number(loc.degreesLatitude ?? 0);
  const lng = Number(loc.degreesLongitude ?? 0);
  const thumb = loc.jpegThumbnail && loc.jpegThumbnail.length ? `data:image/jpeg;base64,${Buffer.from(loc.jpegThumbnail).toString("base64")}` : "";
  const link = `https://maps.google.com/maps?q=${lat},${lng}`;
  const named = loc as proto.Message.ILocationMessage;
  const live = loc as proto.Message.ILiveLocationMessage;
  const parts = [named.name, named.address, live.caption];
  const description = parts
    .filter((p): p is string => Boolean(p && p.trim()))
    .join("\n")
    .replace(/\|/g, "/");
  return `${thumb}|${link}|${description}`;
}

/** The text of a plain or extended text message (also the content of an edit). */
export function textOf(content: proto.IMessage | null | undefined): string | null {
  const c = extractMessageContent(content ?? undefined);
  if (!c) return null;
  if (typeof c.conversation === "string") return c.conversation;
  if (c.extendedTextMessage?.text != null) return c.extendedTextMessage.text;
  if (c.imageMessage) return c.imageMessage.caption ?? "";
  if (c.videoMessage) return c.videoMessage.caption ?? "";
  if (c.documentMessage) return c.documentMessage.caption ?? "";
  return null;
}

function contextOf(content: proto.IMessage, type: keyof proto.IMessage): proto.IContextInfo | null | undefined {
  const inner = content[type] as { contextInfo?: proto.IContextInfo | null } | null | undefined;
  return inner && typeof inner === "object" ? inner.contextInfo : undefined;
}

/**
 * What a Baileys message means for the inbound pipeline: a message (text, media, location, contact
 * card), an edit or revoke of an earlier one, or nothing we record (reactions, receipts, key shares).
 */
export function parseMessage(msg: WAMessage): ParsedMessage {
  const content = extractMessageContent(msg.message ?? undefined);
  if (!content) return { kind: "ignore" };
  const id = msg.key.id ?? "";

  const protocol = content.protocolMessage;
  if (protocol) {
    const targetId = protocol.key?.id;
    if (!targetId) return { kind: "ignore" };
    if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) return { kind: "revoke", targetId };
    if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
      const body = textOf(protocol.editedMessage);
      return body === null ? { kind: "ignore" } : { kind: "edit", targetId, body };
    }
    return { kind: "ignore" };
  }

  const type = getContentType(content);
  if (!type) return { kind: "ignore" };
  const quotedProviderId = contextOf(content, type)?.stanzaId ?? undefined;
  const base = { kind: "message" as const, ...(quotedProviderId ? { quotedProviderId } : {}) };

  switch (type) {
    case "conversation":
      return { ...base, body: content.conversation ?? "", mediaType: "chat" };
    case "extendedTextMessage":
      return { ...base, body: content.extendedTextMessage?.text ?? "", mediaType: "chat" };
    case "imageMessage": {
      const m = content.imageMessage!;
      const mimetype = m.mimetype ?? "image/jpeg";
      return { ...base, body: m.caption ?? "", mediaType: "image", media: { mimetype, fileName: defaultFileName("imagem", id, mimetype) } };
    }
    case "stickerMessage": {
      const mimetype = content.stickerMessage!.mimetype ?? "image/webp";
      return { ...base, body: "", mediaType: "image", media: { mimetype, fileName: defaultFileName("figurinha", id, mimetype) } };
    }
    case "videoMessage": {
      const m = content.videoMessage!;
      const mimetype = m.mimetype ?? "video/mp4";
      return { ...base, body: m.caption ?? "", mediaType: "video", media: { mimetype, fileName: defaultFileName("video", id, mimetype) } };
    }
    case "audioMessage": {
      const m = content.audioMessage!;
      const mimetype = m.mimetype ?? "audio/ogg; codecs=opus";
      const kind = m.ptt ? "audio-voz" : "audio";
      return { ...base, body: "", mediaType: "audio", media: { mimetype, fileName: defaultFileName(kind, id, mimetype) } };
    }
    case "documentMessage": {
      const m = content.documentMessage!;
      const mimetype = m.mimetype ?? "application/octet-stream";
      const fileName = safeDisplayName(m.fileName ?? m.title, defaultFileName("documento", id, mimetype));
      return { ...base, body: m.caption ?? "", mediaType: "application", media: { mimetype, fileName } };
    }
    case "locationMessage":
      return { ...base, body: locationBody(content.locationMessage!), mediaType: "locationMessage" };
    case "liveLocationMessage":
      return { ...base, body: locationBody(content.liveLocationMessage!), mediaType: "locationMessage" };
    case "contactMessage":
      return { ...base, body: content.contactMessage?.vcard ?? "", mediaType: "vcard" };
    case "contactsArrayMessage": {
      const cards = (content.contactsArrayMessage?.contacts ?? []).map((c) => c.vcard ?? "").filter(Boolean);
      return cards.length ? { ...base, body: cards.join("\n"), mediaType: "vcard" } : { kind: "ignore" };
    }
    case "buttonsResponseMessage":
      return { ...base, body: content.buttonsResponseMessage?.selectedDisplayText ?? "", mediaType: "chat" };
    case "listResponseMessage":
      return { ...base, body: content.listResponseMessage?.title ?? "", mediaType: "chat" };
    case "templateButtonReplyMessage":
      return { ...base, body: content.templateButtonReplyMessage?.selectedDisplayText ?? "", mediaType: "chat" };
    default:
      return { kind: "ignore" };
  }
}

/** Ack of a Baileys status (ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5); null when not an ack. */
export function ackOf(status: number | null | undefined): number | null {
  if (status === null || status === undefined) return null;
  const n = Number(status);
  return Number.isInteger(n) && n >= 1 && n <= 5 ? n : null;
}
