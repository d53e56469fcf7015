import { AppError } from "../../core/errors.js";
import type { OutgoingCheck } from "../driver.js";

/**
 * Meta's limits for messages sent through the Cloud API, checked before anything is stored or sent
 * (a refusal from Meta would come only after the upload). Sources: the text and caption limits of the
 * messages reference, and the "Supported media types" table of
 * https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media#supported-media-types
 */
export const TEXT_MAX_CHARS = 4096;
export const CAPTION_MAX_CHARS = 1024;

const KB = 1024;
const MB = 1024 * KB;

/** The Cloud API message type a file goes as. */
export type CloudMediaType = "audio" | "document" | "image" | "sticker" | "video";

interface MediaRule {
  type: CloudMediaType;
  maxBytes: number;
}

const DOCUMENT = { type: "document", maxBytes: 100 * MB } as const;
const RULES: Record<string, MediaRule> = {
  "audio/aac": { type: "audio", maxBytes: 16 * MB },
  "audio/amr": { type: "audio", maxBytes: 16 * MB },
  "audio/mpeg": { type: "audio", maxBytes: 16 * MB },
  "audio/mp4": { type: "audio", maxBytes: 16 * MB },
  // OPUS codecs only (a voice note); ogg without codecs is taken as such
  "audio/ogg": { type: "audio", maxBytes: 16 * MB },
  "text/plain": DOCUMENT,
  "application/pdf": DOCUMENT,
  "application/msword": DOCUMENT,
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": DOCUMENT,
  "application/vnd.ms-excel": DOCUMENT,
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": DOCUMENT,
  "application/vnd.ms-powerpoint": DOCUMENT,
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": DOCUMENT,
  "image/jpeg": { type: "image", maxBytes: 5 * MB },
  "image/png": { type: "image", maxBytes: 5 * MB },
  "image/webp": { type: "sticker", maxBytes: 100 * KB },
  "video/mp4": { type: "video", maxBytes: 16 * MB },
  "video/3gpp": { type: "video", maxBytes: 16 * MB },
};
const ANIMATED_STICKER_MAX = 500 * KB;

/** An animated WebP: the VP8X header's animation flag (RIFF....WEBPVP8X, flags at byte 20). */
export function isAnimatedWebp(data: Buffer): boolean {
  return data.length > 20 && data.toString("ascii", 0, 4) === "RIFF" && data.toString("ascii", 8, 16) === "WEBPVP8X" && (data[20]! & 0x02) !== 0;
}

const charCount = (s: string) => Array.from(s).length;
const sizeText = (bytes: number) => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`);

/** The Cloud API type of an accepted file, or null when Meta does not accept its type. */
export function cloudMediaType(mimetype: string): CloudMediaType | null {
  const base = mimetype.split(";")[0]!.trim().toLowerCase();
  if (base === "audio/ogg" && /codecs=/i.test(mimetype) && !/codecs="?opus/i.test(mimetype)) return null;
  return RULES[base]?.type ?? null;
}

/** Refuses, with a catalogue code, a text, caption or file that Meta would not accept. */
export function assertCloudLimits(outgoing: OutgoingCheck): void {
  const { body, media } = outgoing;
  if (!media) {
    const n = charCount(body);
    if (n > TEXT_MAX_CHARS) throw new AppError("ERR_WAPP_TEXT_TOO_LONG", `O texto tem ${n} caracteres; a API oficial do WhatsApp aceita até ${TEXT_MAX_CHARS}`);
    return;
  }
  const base = media.mimetype.split(";")[0]!.trim().toLowerCase();
  const type = cloudMediaType(media.mimetype);
  if (!type) throw new AppError("ERR_WAPP_MEDIA_TYPE_UNSUPPORTED", `A API oficial do WhatsApp não aceita arquivos do tipo ${base || "desconhecido"}`);
  const max = type === "sticker" && isAnimatedWebp(media.data) ? ANIMATED_STICKER_MAX : RULES[base]!.maxBytes;
  if (media.data.length > max) {
    throw new AppError("ERR_WAPP_MEDIA_TOO_LARGE", `O arquivo tem ${sizeText(media.data.length)}; a API oficial do WhatsApp aceita até ${sizeText(max)} para ${base}`);
  }
  const n = charCount(body);
  if (n > CAPTION_MAX_CHARS) throw new AppError("ERR_WAPP_CAPTION_TOO_LONG", `A legenda tem ${n} caracteres; a API oficial do WhatsApp aceita até ${CAPTION_MAX_CHARS}`);
}
