import type { MediaType } from "@atende/shared";
import { extensionOf } from "../../core/storage.js";
import type { InboundMessage } from "../driver.js";
import type { GraphClient } from "./graph-client.js";
import { digitsOf } from "./number-state.js";
import type { CloudContactCard, CloudMedia, CloudMessage } from "./webhook-types.js";

const MEDIA_KINDS: Record<string, MediaType> = { image: "image", video: "video", audio: "audio", document: "application", sticker: "image" };

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

/** Kinds the ticket screens do not show: reactions, system notices, orders and unsupported messages. */
export const IGNORED_TYPES = new Set(["reaction", "system", "unsupported", "order", "ephemeral", "request_welcome"]);

/**
 * A Cloud API webhook message as the inbound pipeline's message; media is downloaded through the
 * media endpoint with the business's token. Null for kinds that are not shown (reactions, ...).
 */
export async function toInboundMessage(msg: CloudMessage, pushName: string, client: () => GraphClient): Promise<InboundMessage | null> {
  const base = {
    providerId: msg.id,
    from: digitsOf(msg.from),
    pushName,
    quotedProviderId: msg.context?.id,
    timestamp: msg.timestamp ? new Date(Number(msg.timestamp) * 1000) : undefined,
  };
  const kind = MEDIA_KINDS[msg.type];
  if (kind) {
    const media = (msg as unknown as Record<string, CloudMedia | undefined>)[msg.type];
    if (!media?.id) return null;
    const file = await client().downloadMedia(media.id);
    const mimetype = (media.mime_type ?? file.mimetype).split(";")[0]!.trim();
    const fileName = media.filename?.trim() || `${msg.type}.${extensionOf(undefined, mimetype)}`;
    const body = media.caption ?? (msg.type === "document" ? fileName : "");
    return { ...base, body, mediaType: kind, media: { data: file.data, fileName, mimetype } };
  }
  switch (msg.type) {
    case "text":
      return { ...base, body: msg.text?.body ?? "", mediaType: "chat" };
    case "location":
      return msg.location ? { ...base, body: locationBody(msg.location), mediaType: "locationMessage" } : null;
    case "contacts":
      return msg.contacts?.length ? { ...base, body: msg.contacts.map(vcardOf).join("\n"), mediaType: "vcard" } : null;
    case "interactive": {
      const i = msg.interactive;
      const body = i?.button_reply?.title ?? i?.list_reply?.title ?? i?.nfm_reply?.body ?? "";
      return { ...base, body, mediaType: "chat" };
    }
    case "button":
      return { ...base, body: msg.button?.text ?? msg.button?.payload ?? "", mediaType: "chat" };
    default:
      return null;
  }
}
