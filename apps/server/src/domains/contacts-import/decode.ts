import { createReadStream } from "node:fs";
import { Transform } from "node:stream";

/**
 * The import file's encoding, read from disk as a stream (never the whole file in memory). UTF-8 (with
 * or without BOM) is tried first; a file that is not valid UTF-8 is read as ISO-8859-1 / Windows-1252
 * (what spreadsheet programs save in Brazil). Anything with control characters (UTF-16, binary files)
 * or bytes that Windows-1252 leaves undefined is refused.
 */
export type ImportEncoding = "utf-8" | "windows-1252";

export class EncodingError extends Error {}

/**
 * What a byte says about the file: 1, a control character other than tab, line feed and carriage
 * return (in UTF-8 and in Windows-1252 those are single bytes below 0x20 or 0x7f, so the bytes are
 * checked before any decoding); 2, a byte Windows-1252 leaves undefined.
 */
const BYTE_KIND = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) if (b !== 0x09 && b !== 0x0a && b !== 0x0d) BYTE_KIND[b] = 1;
BYTE_KIND[0x7f] = 1;
for (const b of [0x81, 0x8d, 0x8f, 0x90, 0x9d]) BYTE_KIND[b] = 2;

/** The kinds of byte a chunk holds (bits of BYTE_KIND). */
function kinds(chunk: Buffer): number {
  let found = 0;
  for (let i = 0; i < chunk.length; i++) found |= BYTE_KIND[chunk[i]!]!;
  return found;
}

/** One pass over the file's bytes: its encoding, or an EncodingError (the file is refused). */
export async function detectEncoding(file: string): Promise<ImportEncoding> {
  // the WHATWG decoder (fatal) is the validator: streamed, a character split between chunks is whole
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let valid = true;
  let undefinedInCp1252 = false;
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    const found = kinds(chunk);
    if (found & 1) throw new EncodingError("control characters: not a text file");
    if (found & 2) undefinedInCp1252 = true;
    if (valid) {
      try {
        utf8.decode(chunk, { stream: true });
      } catch (err) {
        // not UTF-8: the file is read as Windows-1252 below, unless it has bytes that one leaves undefined
        if (!(err instanceof TypeError)) throw err;
        valid = false;
      }
    }
  }
  if (valid) {
    try {
      utf8.decode();
      return "utf-8";
    } catch (err) {
      // the file ends in the middle of a UTF-8 character
      if (!(err instanceof TypeError)) throw err;
    }
  }
  if (undefinedInCp1252) throw new EncodingError("neither UTF-8 nor ISO-8859-1");
  return "windows-1252";
}

/** Bytes → text in the file's encoding, chunk by chunk (the byte-order mark is left for the CSV parser to drop). */
export function decoderStream(encoding: ImportEncoding): Transform {
  const decoder = new TextDecoder(encoding, { ignoreBOM: true });
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      done(null, decoder.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
}
