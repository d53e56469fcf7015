import { contactKey } from "../../core/phone.js";
import { Readable } from "node:stream";
import { parse, type Options } from "csv-parse";
import { CONTACT_IMPORT_COLUMNS, CONTACT_IMPORT_MAX_ERRORS, CONTACT_IMPORT_MESSAGES } from "@atende/shared";
import { AppError } from "../../core/errors.js";
import type { Sql } from "../../db/sql.js";

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
 * The text in slices: the parser takes one at a time as records are consumed, so a large file is
 * never parsed (nor held as records) all at once, and after each slice the event loop runs other
 * requests (a setImmediate turn: without it a 3 MB file was parsed in one ~700 ms stretch).
 */
async function* slices(text: string, size = 64 * 1024): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) {
    yield text.slice(i, i + size);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
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
function parser<T>(text: string, each: (cells: Cells) => T | null) {
  let columns: Columns | null = null;
  const cell = (record: string[], i: number) => (i >= 0 ? (record[i] ?? "") : "");
  const options: Options<T, string[]> = {
    delimiter: ";",
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
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
  // the typings tie on_record's result to the columns option, which this parser does without
  return Readable.from(slices(text)).pipe(parse(options as unknown as Options));
}

const layoutError = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.badLayout, { fields: { file: CONTACT_IMPORT_MESSAGES.badLayout } });
const parseError = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.parseError, { fields: { file: CONTACT_IMPORT_MESSAGES.parseError } });

/** Checks the header line: it must name nome, telefone, cpf and email (any order, case or accents). */
export function checkHeader(text: string): void {
  // the first line only: the header is never longer than a few hundred characters (no copy of the file)
  const start = text.startsWith("\uFEFF") ? 1 : 0;
  const end = text.indexOf("\n", start);
  const firstLine = text.slice(start, end === -1 ? undefined : end).replace(/\r$/, "");
  const columns = new Set(firstLine.split(";").map((c) => normalizeHeader(c.replace(/^"|"$/g, ""))));
  if (!CONTACT_IMPORT_COLUMNS.every((c) => columns.has(c))) throw layoutError();
}

/** Counts the data rows by parsing the whole file once (a malformed file fails here, before any write). */
export async function countRows(text: string): Promise<number> {
  let n = 0;
  try {
    for await (const _ of parser(text, () => {
      n++;
      return null;
    }));
  } catch {
    throw parseError();
  }
  return n;
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
 * kept once (first occurrence) and the repeats rejected. `onBatch` reports progress after each batch.
 */
export async function importRows(
  sql: Sql,
  companyId: number,
  text: string,
  onBatch: (counts: ImportCounts) => void | Promise<void> = () => undefined,
): Promise<ImportCounts> {
  const counts: ImportCounts = { processed: 0, imported: 0, updated: 0, rejected: 0, errors: [] };
  const seen = new Map<string, number>();
  let batch: Row[] = [];
  const reject = (line: number, reason: string) => {
    counts.rejected++;
    if (counts.errors.length < CONTACT_IMPORT_MAX_ERRORS) counts.errors.push({ line, reason });
  };
  const flush = async () => {
    if (batch.length) {
      const r = await upsert(sql, companyId, batch);
      counts.imported += r.imported;
      counts.updated += r.updated;
      batch = [];
    }
    await onBatch(counts);
  };
  try {
    for await (const cells of parser(text, (c) => c) as AsyncIterable<Cells>) {
      counts.processed++;
      const v = validate(cells);
      if ("reason" in v) {
        reject(v.line, v.reason);
      } else if (seen.has(v.number)) {
        reject(v.line, `Telefone repetido no arquivo (linha ${seen.get(v.number)})`);
      } else {
        seen.set(v.number, v.line);
        batch.push(v);
      }
      if (batch.length >= BATCH || counts.processed % BATCH === 0) await flush();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code?.startsWith("CSV_")) throw parseError();
    throw err;
  }
  await flush();
  return counts;
}
