/**
 * Which stored media a browser may show as themselves. Files come from outside (a customer over
 * WhatsApp, an agent's upload, a quick message or schedule attachment) with a media type the sender
 * chose: only passive types are shown inline; SVG, HTML, XML, scripts and anything unknown are
 * downloads. The server's media routes and the web's blob URLs use the same rule.
 */

const FALLBACK = "application/octet-stream";
// RFC 9110 token characters, for the type, the subtype and parameters.
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,127}$/;
const PARAMETER = /^[a-z0-9!#$&^_.+-]{1,64}=[a-z0-9!#$&^_.+-]{1,64}$/;

/**
 * A sender-given media type made safe to store and to send as a header: `type/subtype` lower-cased,
 * plus only well-formed `name=value` parameters (`audio/ogg; codecs=opus`); a malformed type (a CRLF,
 * a quote, an empty string) becomes octet-stream, a malformed parameter is dropped.
 */
export function cleanMediaType(raw: string | null | undefined): string {
  const [type = "", ...params] = (raw ?? "").toLowerCase().split(";").map((p) => p.trim());
  if (!MEDIA_TYPE.test(type)) return FALLBACK;
  return [type, ...params.filter((p) => PARAMETER.test(p))].join("; ");
}

const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** Raster images, audio, video and PDF: the types a browser shows without running anything of ours. */
export function isInlineMediaType(mediaType: string): boolean {
  const base = cleanMediaType(mediaType).split(";")[0]!;
  return INLINE_IMAGES.has(base) || base.startsWith("audio/") || base.startsWith("video/") || base === "application/pdf";
}

/**
 * POST /upload (spec 2-administration §7, the queue dialog's file): the types it keeps, told by the
 * file's first bytes on the server (a name or a declared type proves nothing). At most
 * LIMITS.attachmentMaxBytes (10 MB). The web's file picker offers the same list.
 */
export const UPLOAD_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "audio/mpeg", "audio/ogg", "video/mp4"] as const;
export type UploadMediaType = (typeof UPLOAD_MEDIA_TYPES)[number];
