import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Sql } from "../../db/sql.js";
import * as repo from "./repository.js";

const BATCH = 1000;

/** Cells starting like a spreadsheet formula get a leading apostrophe (the import takes it off). */
const guard = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/**
 * The company's contacts as CSV (nome;telefone;cpf;email, UTF-8 with BOM), produced batch by batch
 * with keyset pagination: memory stays flat whatever the number of contacts, and a slow client
 * slows the reads down (stream back-pressure).
 */
export function exportContacts(sql: Sql, companyId: number): Readable {
  async function* rows() {
    let after = 0;
    for (;;) {
      const batch = await repo.exportBatch(sql, companyId, after, BATCH);
      for (const c of batch) yield { nome: guard(c.name), telefone: c.number, cpf: guard(c.document), email: guard(c.email) };
      if (batch.length < BATCH) return;
      after = batch[batch.length - 1]!.id;
    }
  }
  const csv = stringify({ delimiter: ";", header: true, bom: true, columns: ["nome", "telefone", "cpf", "email"], record_delimiter: "\r\n" });
  const source = Readable.from(rows());
  source.on("error", (err) => csv.destroy(err));
  return source.pipe(csv);
}
