import contentDisposition from "content-disposition";
import type { FastifyReply } from "fastify";
import type { Readable } from "node:stream";

/**
 * Media arrive from outside (a customer over WhatsApp, an agent's upload, a quick message or schedule
 * attachment) with a media type the sender chose. A stored file must never run as a page of this
 * origin: only passive types are shown inline; everything else (SVG, HTML, XML, scripts, unknown) is
 * a download, and every answer is sandboxed and not sniffable.
 */

const FALLBACK = "application/octet-stream";
// RFC 9110 token characters, for the type and the subtype.
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,127}$/;

/**
 * The bare `type/subtype` of a sender-given media type, lower-cased; parameters (`; codecs=opus`)
 * are dropped and anything malformed (a CRLF, a quote, an empty string) becomes octet-stream.
 */
export function cleanMediaType(raw: string | null | undefined): string {
  const base = (raw ?? "").split(";")[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(base) ? base : FALLBACK;
}

const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** Raster images, audio, video and PDF: the types a browser shows without running anything of ours. */
export function isInlineSafe(mediaType: string): boolean {
  return INLINE_IMAGES.has(mediaType) || mediaType.startsWith("audio/") || mediaType.startsWith("video/") || mediaType === "application/pdf";
}

/**
 * Sends a stored file with the headers that keep it passive: the cleaned media type, `inline` only
 * for the allow-list, `attachment` otherwise, `nosniff`, and `CSP: sandbox` so even a file opened
 * directly cannot script this origin.
 */
export function sendStoredMedia(
  reply: FastifyReply,
  file: { stream: Readable; size: number; mimetype: string | null | undefined; fileName: string },
  opts: { cacheControl?: string } = {},
) {
  const mediaType = cleanMediaType(file.mimetype);
  const disposition = contentDisposition(file.fileName, { type: isInlineSafe(mediaType) ? "inline" : "attachment" });
  reply
    .header("content-type", mediaType)
    .header("content-length", file.size)
    .header("content-disposition", disposition)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "sandbox");
  if (opts.cacheControl) reply.header("cache-control", opts.cacheControl);
  return reply.send(file.stream);
}
