import { contactKey } from "../../core/phone.js";
import { createReadStream } from "node:fs";
import { pipeline, Readable } from "node:stream";
import { parse, type Options, type Parser } from "csv-parse";
import { CONTACT_IMPORT_COLUMNS, CONTACT_IMPORT_MAX_ERRORS, CONTACT_IMPORT_MESSAGES } from "@atende/shared";
import { AppError } from "../../core/errors.js";
import type { Sql } from "../../db/sql.js";
import { decoderStream, detectEncoding, EncodingError, type ImportEncoding } from "./decode.js";
import { SeenNumbers } from "./seen-numbers.js";

/**
 * Where an import's rows come from: the uploaded file on disk, read in its encoding (never held whole);
 * or a text, for an import queued before the uploads went to disk (its text kept in
 * `contact_imports.content`).
 */
export type ImportSource = { file: string; encoding: ImportEncoding } | { text: string };

export interface ImportCounts {
  processed: number;
  imported: number;
  updated: number;
  rejected: number;
  errors: { line: number; reason: string }[];
}

const BATCH = 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const normalizeHeader = (h: string) =>
  h
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase();

/** A spreadsheet-formula guard added by the export ('=...) is taken off again. */
const unguard = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);

/**
 * A text in slices: the parser takes one at a time as records are consumed, so a large text is never
 * parsed (nor held as records) all at once, and after each slice the event loop runs other requests (a
 * setImmediate turn: without it a 3 MB file was parsed in one ~700 ms stretch). A file is read from
 * disk in chunks of the same size, each one an I/O turn of the event loop.
 */
async function* slices(text: string, size = 64 * 1024): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) {
    yield text.slice(i, i + size);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const CHUNK_BYTES = 64 * 1024;
/** One line of the file, in characters: far above a real row (name, phone, CPF, e-mail). */
const LINE_MAX_CHARS = 64 * 1024;

/**
 * The source's text into the parser. A failure anywhere (the disk, a CSV syntax error) destroys the
 * parser with it, so the loop reading the records throws it; stopping that loop early closes the file.
 */
function parseSource<T>(source: ImportSource, options: Options<T, string[]>): Parser {
  // the typings tie on_record's result to the columns option, which this parser does without
  const parser = parse(options as unknown as Options);
  // pipeline's callback gets the error the parser was destroyed with, which the reading loop throws
  const delivered = () => undefined;
  if ("text" in source) return pipeline(Readable.from(slices(source.text)), parser, delivered);
  return pipeline(createReadStream(source.file, { highWaterMark: CHUNK_BYTES }), decoderStream(source.encoding), parser, delivered);
}

/** A data row as the import reads it: its line in the file and the four cells it uses. */
type Cells = [line: number, telefone: string, nome: string, email: string, cpf: string];
type Columns = Record<(typeof CONTACT_IMPORT_COLUMNS)[number], number>;

/**
 * Parses the text into compact rows (`each` turns a data row into what the stream yields, or null to
 * yield nothing). Records are arrays and the header is matched once by position, so a row costs one
 * small tuple: a 100k-row file no longer leaves a record object and an info object per row for the
 * garbage collector (they outlived the young generation and grew the heap by ~180 MiB).
 */
function parser<T>(source: ImportSource, each: (cells: Cells) => T | null) {
  let columns: Columns | null = null;
  const cell = (record: string[], i: number) => (i >= 0 ? (record[i] ?? "") : "");
  const options: Options<T, string[]> = {
    delimiter: ";",
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
    // a quote never closed would make one field of the rest of the file: one allocation that size can
    // abort a capped worker thread's whole process (nodejs/node#47224); such a file is malformed
    max_record_size: LINE_MAX_CHARS,
    on_record: (record, context) => {
      if (!columns) {
        const names = record.map(normalizeHeader);
        columns = Object.fromEntries(CONTACT_IMPORT_COLUMNS.map((c) => [c, names.indexOf(c)])) as Columns;
        return null;
      }
      if (record.every((v) => v === "")) return null;
      return each([context.lines, cell(record, columns.telefone), cell(record, columns.nome), cell(record, columns.email), cell(record, columns.cpf)]);
    },
  };
  return parseSource(source, options);
}

const layoutError = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.badLayout, { fields: { file: CONTACT_IMPORT_MESSAGES.badLayout } });
const parseError = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.parseError, { fields: { file: CONTACT_IMPORT_MESSAGES.parseError } });

/** A header longer than this is no header: the file is refused for its layout without reading more. */
const HEADER_MAX_CHARS = 64 * 1024;

/** The text of the source's first line (at most HEADER_MAX_CHARS): the header is never longer than a few hundred characters. */
async function firstLine(source: ImportSource): Promise<string> {
  if ("text" in source) return source.text.slice(0, HEADER_MAX_CHARS).split("\n", 1)[0]!;
  let line = "";
  const decoder = new TextDecoder(source.encoding, { ignoreBOM: true });
  for await (const chunk of createReadStream(source.file, { highWaterMark: 4096, end: HEADER_MAX_CHARS * 4 }) as AsyncIterable<Buffer>) {
    line += decoder.decode(chunk, { stream: true });
    const end = line.indexOf("\n");
    if (end !== -1) return line.slice(0, end);
    if (line.length > HEADER_MAX_CHARS) break;
  }
  return line.slice(0, HEADER_MAX_CHARS);
}

/** Checks the header line: it must name nome, telefone, cpf and email (any order, case or accents). */
export async function checkHeader(source: ImportSource): Promise<void> {
  const line = (await firstLine(source)).replace(/^\uFEFF/, "").replace(/\r$/, "");
  const columns = new Set(line.split(";").map((c) => normalizeHeader(c.replace(/^"|"$/g, ""))));
  if (!CONTACT_IMPORT_COLUMNS.every((c) => columns.has(c))) throw layoutError();
}

/** Counts the data rows by parsing the whole file once (a malformed file fails here, before any write). */
export async function countRows(source: ImportSource): Promise<number> {
  let n = 0;
  try {
    for await (const _ of parser(source, () => {
      n++;
      return null;
    }));
  } catch (err) {
    if (err instanceof AppError || !(err as { code?: string }).code?.startsWith("CSV_")) throw err;
    throw parseError();
  }
  return n;
}

/**
 * The upload's checks before any write, in the order the file is refused: its encoding (a binary or
 * UTF-16 file: 'Erro ao processar o arquivo.'), its header (the layout message), its CSV syntax
 * (parsed whole once, which also counts its rows).
 */
export async function checkUpload(file: string): Promise<{ encoding: ImportEncoding; total: number }> {
  let encoding: ImportEncoding;
  try {
    encoding = await detectEncoding(file);
  } catch (err) {
    if (err instanceof EncodingError) throw parseError();
    throw err;
  }
  const source = { file, encoding };
  await checkHeader(source);
  return { encoding, total: await countRows(source) };
}

interface Row {
  line: number;
  name: string;
  number: string;
  email: string;
  document: string;
}

function validate([line, rawPhone, rawName, rawEmail, rawDocument]: Cells): Row | { line: number; reason: string } {
  const digits = rawPhone.replace(/\D/g, "");
  if (!digits) return { line, reason: "Telefone vazio" };
  if (digits.length < 8) return { line, reason: `Telefone inválido (mínimo 8 dígitos): ${rawPhone}` };
  if (digits.length > 50) return { line, reason: "Telefone inválido (máximo 50 dígitos)" };
  // the stored form: with country code, a Brazilian mobile with its ninth digit (a repeat in the other form is a repeat)
  const number = contactKey(rawPhone);
  const email = unguard(rawEmail).trim();
  if (email && (!EMAIL.test(email) || email.length > 254)) return { line, reason: `E-mail inválido: ${email.slice(0, 100)}` };
  const document = unguard(rawDocument).trim();
  if (document.length > 30) return { line, reason: "CPF inválido (máximo 30 caracteres)" };
  const name = unguard(rawName).trim().slice(0, 50);
  return { line, name, number, email, document };
}

/** Inserts new numbers and updates known ones; empty e-mail/cpf/name cells keep the stored values. */
async function upsert(sql: Sql, companyId: number, rows: Row[]): Promise<{ imported: number; updated: number }> {
  const result = await sql.many<{ inserted: boolean }>(
    `INSERT INTO contacts (company_id, name, number, email, document)
     SELECT $1, CASE WHEN x.name = '' THEN x.number ELSE x.name END, x.number, x.email, x.document
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS x(name, number, email, document)
     ON CONFLICT (company_id, number) DO UPDATE SET
       name = CASE WHEN EXCLUDED.name = EXCLUDED.number THEN contacts.name ELSE EXCLUDED.name END,
       email = COALESCE(NULLIF(EXCLUDED.email, ''), contacts.email),
       document = COALESCE(NULLIF(EXCLUDED.document, ''), contacts.document),
       updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
    [companyId, rows.map((r) => r.name), rows.map((r) => r.number), rows.map((r) => r.email), rows.map((r) => r.document)],
  );
  const imported = result.filter((r) => r.inserted).length;
  return { imported, updated: result.length - imported };
}

/**
 * Streams the rows through validation into batched upserts of 1000. A number repeated in the file is
 * kept once (first occurrence) and the repeats rejected. `onBatch` reports progress after each batch
 * is stored: the counts as of that batch's last row.
 *
 * One batch is stored while the next one is read: the parse (and the number checks) and the database's
 * INSERT run side by side instead of each waiting for the other (a 100k-row import waited on the
 * database for 5.3 s of its 8.8 s, docs/performance.md). At most one batch is in flight: the next one
 * waits for it (and for its progress report) before it goes.
 */
export async function importRows(
  sql: Sql,
  companyId: number,
  source: ImportSource,
  onBatch: (counts: ImportCounts) => void | Promise<void> = () => undefined,
): Promise<ImportCounts> {
  const counts: ImportCounts = { processed: 0, imported: 0, updated: 0, rejected: 0, errors: [] };
  const seen = new SeenNumbers();
  let batch: Row[] = [];
  const reject = (line: number, reason: string) => {
    counts.rejected++;
    if (counts.errors.length < CONTACT_IMPORT_MAX_ERRORS) counts.errors.push({ line, reason });
  };
  // the batch in flight; it never rejects (a failure is its value), so no failure goes unhandled while
  // the next batch is read, and `stored` throws it where the import awaits it
  let inFlight: Promise<{ err: unknown } | null> | null = null;
  const stored = async () => {
    const end = inFlight && (await inFlight);
    inFlight = null;
    if (end) throw end.err;
  };
  const flush = async () => {
    await stored();
    const rows = batch;
    batch = [];
    const at = { processed: counts.processed, rejected: counts.rejected, errors: counts.errors.length };
    inFlight = (async () => {
      if (rows.length) {
        const r = await upsert(sql, companyId, rows);
        counts.imported += r.imported;
        counts.updated += r.updated;
      }
      await onBatch({ ...counts, processed: at.processed, rejected: at.rejected, errors: counts.errors.slice(0, at.errors) });
    })().then(
      () => null,
      (err: unknown) => ({ err }),
    );
  };
  try {
    for await (const cells of parser(source, (c) => c) as AsyncIterable<Cells>) {
      counts.processed++;
      const v = validate(cells);
      if ("reason" in v) {
        reject(v.line, v.reason);
      } else {
        const first = seen.get(v.number);
        if (first !== undefined) {
          reject(v.line, `Telefone repetido no arquivo (linha ${first})`);
        } else {
          seen.add(v.number, v.line);
          batch.push(v);
        }
      }
      if (batch.length >= BATCH || counts.processed % BATCH === 0) await flush();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code?.startsWith("CSV_")) throw parseError();
    throw err;
  } finally {
    // a failed read leaves no batch running on the connection after the import returned
    if (inFlight) await inFlight;
  }
  await flush();
  await stored();
  return counts;
}
