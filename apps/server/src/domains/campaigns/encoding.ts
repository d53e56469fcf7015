import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse, type Parser } from "csv-parse";
import { campaignFileColumns, CAMPAIGN_MESSAGES, LIMITS, type CampaignFileColumns } from "@atende/shared";

export type CsvEncoding = "utf-8" | "iso-8859-1" | "ascii";

export class CampaignFileError extends Error {}

/**
 * The file's encoding, read as a stream (never the whole file in memory): ascii when every byte is
 * below 0x80, utf-8 when the bytes are valid UTF-8, iso-8859-1 when they are not but hold only
 * printable Latin-1 characters. Anything else is refused with the spec's message naming what it looks
 * like: a UTF-16 byte-order mark, Windows-1252 (bytes 0x80-0x9F, its curly quotes and dashes), or a
 * binary file (control bytes).
 */
export async function detectEncoding(file: string): Promise<CsvEncoding> {
  let ascii = true;
  let c1 = false;
  let first = true;
  const utf8 = new Utf8Validator();
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    if (first) {
      first = false;
      if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) {
        throw new CampaignFileError(CAMPAIGN_MESSAGES.encoding(chunk[0] === 0xff ? "utf-16le" : "utf-16be"));
      }
    }
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b < 0x20 ? b !== 0x09 && b !== 0x0a && b !== 0x0d : b === 0x7f) throw new CampaignFileError(CAMPAIGN_MESSAGES.encoding("binário"));
      if (b >= 0x80) {
        ascii = false;
        if (b <= 0x9f) c1 = true;
      }
      utf8.push(b);
    }
  }
  if (ascii) return "ascii";
  if (utf8.complete()) return "utf-8";
  if (c1) throw new CampaignFileError(CAMPAIGN_MESSAGES.encoding("windows-1252"));
  return "iso-8859-1";
}

/** Byte-by-byte UTF-8 well-formedness (RFC 3629 table: no overlong forms, no surrogates, nothing above U+10FFFF). */
export class Utf8Validator {
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private ok = true;

  push(b: number): void {
    if (!this.ok) return;
    if (this.need === 0) {
      if (b < 0x80) return;
      if (b >= 0xc2 && b <= 0xdf) this.expect(1, 0x80, 0xbf);
      else if (b === 0xe0) this.expect(2, 0xa0, 0xbf);
      else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) this.expect(2, 0x80, 0xbf);
      else if (b === 0xed) this.expect(2, 0x80, 0x9f);
      else if (b === 0xf0) this.expect(3, 0x90, 0xbf);
      else if (b >= 0xf1 && b <= 0xf3) this.expect(3, 0x80, 0xbf);
      else if (b === 0xf4) this.expect(3, 0x80, 0x8f);
      else this.ok = false;
      return;
    }
    if (b < this.lo || b > this.hi) {
      this.ok = false;
      return;
    }
    this.need -= 1;
    this.lo = 0x80;
    this.hi = 0xbf;
  }

  private expect(need: number, lo: number, hi: number): void {
    this.need = need;
    this.lo = lo;
    this.hi = hi;
  }

  /** Valid so far and not cut in the middle of a character. */
  complete(): boolean {
    return this.ok && this.need === 0;
  }
}

/** Bytes → text in the detected encoding, chunk by chunk (a character split between chunks is kept whole). */
export function decoderStream(encoding: CsvEncoding): Transform {
  const decoder = new StringDecoder(encoding === "iso-8859-1" ? "latin1" : "utf8");
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      done(null, decoder.write(chunk));
    },
    flush(done) {
      done(null, decoder.end());
    },
  });
}

/**
 * The header line of a campaign file (spec 3 §5), for the three channels' analyses: the shared rule
 * (campaignFileColumns, also run by the campaign forms when a file is chosen), its refusal thrown as
 * the file's fault in the spec's words.
 */
export function fileColumns(record: string[]): CampaignFileColumns {
  const header = campaignFileColumns(record);
  if ("refusal" in header) throw new CampaignFileError(CAMPAIGN_MESSAGES.header(header.refusal));
  return header.columns;
}

/**
 * The CSV reader of every campaign analysis (WhatsApp, SMS, e-mail): `;`, lenient quotes and column
 * counts, empty lines skipped, the BOM dropped, and one line never past LIMITS.campaignCsvMaxLineChars
 * (a quote never closed would make one field of the whole file: one large allocation can abort a
 * capped worker thread's process, nodejs/node#47224).
 *
 * `ended` is the file → decoder → parser pipeline's end: null, or what failed it. It never rejects:
 * the parser may meet a line too long while the caller awaits something else (a batch's INSERT), and a
 * rejected promise nobody awaits yet is an unhandled rejection, which ends a worker thread without an
 * outcome (the list said 'falha interna' instead of the line's number). Every way out of the caller
 * awaits it: `csvReadDone` after the loop, `csvReadFailed` when the loop threw.
 */
export interface CampaignCsvReading {
  parser: Parser;
  ended: Promise<{ err: unknown } | null>;
}

export function campaignCsvReader(file: string, encoding: CsvEncoding): CampaignCsvReading {
  const parser = parse({
    delimiter: ";",
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    bom: true,
    max_record_size: LIMITS.campaignCsvMaxLineChars,
  });
  const ended = pipeline(createReadStream(file, { highWaterMark: 256 * 1024 }), decoderStream(encoding), parser).then(
    () => null,
    (err: unknown) => ({ err }),
  );
  return { parser, ended };
}

/** A CSV syntax error as the file's fault (a line too long names its number and the limit); null for anything else. */
function csvFileError(err: unknown): CampaignFileError | null {
  if (err instanceof CampaignFileError) return err;
  const csv = err as { code?: unknown; lines?: number } | null;
  if (typeof csv?.code !== "string") return null;
  if (csv.code === "CSV_MAX_RECORD_SIZE") return new CampaignFileError(CAMPAIGN_MESSAGES.lineTooLong(csv.lines ?? 0, LIMITS.campaignCsvMaxLineChars));
  if (csv.code.startsWith("CSV_")) return new CampaignFileError(CAMPAIGN_MESSAGES.unreadable);
  return null;
}

/** After the reader's loop ended without an error: the pipeline's own failure, if any, as csvReadFailed would throw it. */
export async function csvReadDone(r: CampaignCsvReading): Promise<void> {
  const end = await r.ended;
  if (end) throw csvFileError(end.err) ?? end.err;
}

/**
 * After a reader's loop failed: stops the parser, waits for the pipeline, and rethrows — a CSV syntax
 * error (the loop's, or the pipeline's when the loop saw only the stream's premature end) as the
 * file's fault, anything else as it was (the database or the disk: retried). The reader stopping
 * because the parser was closed on purpose is not worth a line; other failures are.
 */
export async function csvReadFailed(err: unknown, r: CampaignCsvReading, warn: (err: unknown, msg: string) => void, what: string): Promise<never> {
  r.parser.destroy();
  const end = await r.ended;
  const fileError = csvFileError(err) ?? (end ? csvFileError(end.err) : null);
  if (fileError) throw fileError;
  if (end && !(err instanceof CampaignFileError)) warn(end.err, `${what} file reader stopped`);
  throw err;
}
