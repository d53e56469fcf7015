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

/** The `type/subtype` of a cleaned media type. */
const baseOf = (mediaType: string): string => mediaType.split(";")[0]!;

const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** Raster images, audio, video and PDF: the types a browser shows without running anything of ours. */
export function isInlineSafe(mediaType: string): boolean {
  const base = baseOf(mediaType);
  return INLINE_IMAGES.has(base) || base.startsWith("audio/") || base.startsWith("video/") || base === "application/pdf";
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
