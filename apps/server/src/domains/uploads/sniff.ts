import type { UploadMediaType } from "@atende/shared";

const starts = (data: Buffer, bytes: number[], at = 0) => data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * The media type a file's first bytes show, among the ones POST /upload keeps; null for anything else
 * (a script renamed .png, an HTML page sent as image/png, an SVG, an executable).
 */
export function sniffUploadType(data: Buffer): UploadMediaType | null {
  if (starts(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts(data, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts(data, ascii("GIF87a")) || starts(data, ascii("GIF89a"))) return "image/gif";
  if (starts(data, ascii("RIFF")) && starts(data, ascii("WEBP"), 8)) return "image/webp";
  if (starts(data, ascii("%PDF-"))) return "application/pdf";
  if (starts(data, ascii("OggS"))) return "audio/ogg";
  // MP3: an ID3 tag, or an MPEG audio frame sync (11 set bits) of layer III
  if (starts(data, ascii("ID3")) || (data.length >= 2 && data[0] === 0xff && (data[1]! & 0xe6) === 0xe2)) return "audio/mpeg";
  // MP4: an `ftyp` box first
  if (starts(data, ascii("ftyp"), 4)) return "video/mp4";
  return null;
}
