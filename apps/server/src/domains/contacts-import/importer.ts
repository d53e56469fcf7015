import { contactKey } from "../../core/phone.js";
import { Readable } from "node:stream";
import { parse, type Info } from "csv-parse";
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
 * never parsed (nor held as records) all at once, and other requests run between slices.
 */
function* slices(text: string, size = 64 * 1024): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

function parser(text: string) {
  return Readable.from(slices(text)).pipe(
    parse({
      delimiter: ";",
      bom: true,
      columns: (header: string[]) => header.map(normalizeHeader),
      info: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      trim: true,
    }),
  );
}

type ParsedRecord = { info: Info; record: Record<string, string | undefined> };

const layoutError = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.badLayout, { fields: { file: CONTACT_IMPORT_MESSAGES.badLayout } });
const parseError = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.parseError, { fields: { file: CONTACT_IMPORT_MESSAGES.parseError } });

/** Checks the header line: it must name nome, telefone, cpf and email (any order, case or accents). */
export function checkHeader(text: string): void {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  const columns = new Set(firstLine.split(";").map((c) => normalizeHeader(c.replace(/^"|"$/g, ""))));
  if (!CONTACT_IMPORT_COLUMNS.every((c) => columns.has(c))) throw layoutError();
}

/** Counts the data rows by parsing the whole file once (a malformed file fails here, before any write). */
export async function countRows(text: string): Promise<number> {
  let n = 0;
  try {
    for await (const _ of parser(text)) n++;
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

function validate(line: number, r: Record<string, string | undefined>): Row | { line: number; reason: string } {
  const rawPhone = r.telefone ?? "";
  const digits = rawPhone.replace(/\D/g, "");
  if (!digits) return { line, reason: "Telefone vazio" };
  if (digits.length < 8) return { line, reason: `Telefone inválido (mínimo 8 dígitos): ${rawPhone}` };
  if (digits.length > 50) return { line, reason: "Telefone inválido (máximo 50 dígitos)" };
  // the stored form: with country code, a Brazilian mobile with its ninth digit (a repeat in the other form is a repeat)
  const number = contactKey(rawPhone);
  const email = unguard(r.email ?? "").trim();
  if (email && (!EMAIL.test(email) || email.length > 254)) return { line, reason: `E-mail inválido: ${email.slice(0, 100)}` };
  const document = unguard(r.cpf ?? "").trim();
  if (document.length > 30) return { line, reason: "CPF inválido (máximo 30 caracteres)" };
  const name = unguard(r.nome ?? "").trim().slice(0, 50);
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
    for await (const item of parser(text) as AsyncIterable<ParsedRecord>) {
      counts.processed++;
      const v = validate(item.info.lines, item.record);
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
