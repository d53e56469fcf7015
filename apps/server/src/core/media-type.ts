import { cleanMediaType, isInlineMediaType } from "@atende/shared";
import contentDisposition from "content-disposition";
import type { FastifyReply } from "fastify";
import type { Readable } from "node:stream";

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
  const disposition = contentDisposition(file.fileName, { type: isInlineMediaType(mediaType) ? "inline" : "attachment" });
  reply
    .header("content-type", mediaType)
    .header("content-length", file.size)
    .header("content-disposition", disposition)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "sandbox");
  if (opts.cacheControl) reply.header("cache-control", opts.cacheControl);
  return reply.send(file.stream);
}
