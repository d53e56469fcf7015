import type { FastifyBaseLogger } from "fastify";
import type { Sql } from "../../db/sql.js";
import { SEALED_COLUMNS, type SealedColumn } from "./columns.js";
import type { SecretSealer } from "./sealer.js";

export interface ResealCounts {
  /** plaintext values sealed */
  sealed: number;
  /** v1 values or values under an older key, sealed again under the first key */
  resealed: number;
  /** values that do not open (a key missing from SECRETS_KEYS, altered values): left as they are */
  unreadable: number;
}

const BATCH = 200;

/**
 * "startup": seals plaintext left from before sealing (rows written by older versions) and re-seals
 * `v1:` values; values sealed under any listed key stay as they are, so a start stays quick and a
 * process with the previous key list can still open everything.
 * "rotate": also re-seals values sealed under a key other than the first of SECRETS_KEYS
 * (`npm run secrets:rotate -w apps/server`, and the daily job secrets.reseal).
 */
export type ResealMode = "startup" | "rotate";

/**
 * Idempotent and batched (200 rows at a time, walking by key); each row is written only if it still
 * holds the value read, so a concurrent edit wins and is not overwritten.
 */
export async function resealStoredSecrets(sql: Sql, sealer: SecretSealer, log: FastifyBaseLogger, mode: ResealMode): Promise<ResealCounts> {
  const counts: ResealCounts = { sealed: 0, resealed: 0, unreadable: 0 };
  for (const col of SEALED_COLUMNS) await resealColumn(sql, sealer, col, counts, log, mode);
  if (counts.sealed || counts.resealed || counts.unreadable) log.info({ ...counts, keyId: sealer.primaryKeyId }, "stored secrets sealed under the current key");
  return counts;
}

async function resealColumn(sql: Sql, sealer: SecretSealer, col: SealedColumn, counts: ResealCounts, log: FastifyBaseLogger, mode: ResealMode): Promise<void> {
  const keys = col.key.join(", ");
  const current = mode === "rotate" ? `v2:${sealer.primaryKeyId.replace(/_/g, "\\_")}:%` : "v2:%";
  let after: unknown[] | null = null;
  for (;;) {
    const params: unknown[] = [current, BATCH];
    const from: string = after ? `AND (${keys}) > (${after.map((_, i) => `$${i + 3}`).join(", ")})` : "";
    if (after) params.push(...after);
    const rows: (Record<string, unknown> & { value: string; company: number })[] = await sql.many<Record<string, unknown> & { value: string; company: number }>(
      `SELECT ${col.company} AS company, ${keys}, ${col.column} AS value FROM ${col.table}
        WHERE ${col.column} <> '' AND ${col.column} NOT LIKE $1 ${from} ORDER BY ${keys} LIMIT $2`,
      params,
    );
    for (const row of rows) {
      const key = col.key.map((k) => row[k]);
      const place = col.place(Number(row.company), key);
      const state = sealer.state(row.value);
      if (state === "current" || (mode === "startup" && state === "old-key")) continue;
      let plain: string;
      try {
        plain = state === "plaintext" ? row.value : sealer.open(place, row.value);
      } catch (err) {
        counts.unreadable++;
        log.warn({ err, table: col.table, column: col.column, key }, "a stored secret does not open: left as it is (its owner types it again)");
        continue;
      }
      const where = col.key.map((k, i) => `${k} = $${i + 3}`).join(" AND ");
      const n = await sql.exec(`UPDATE ${col.table} SET ${col.column} = $1 WHERE ${col.column} = $2 AND ${where}`, [sealer.seal(place, plain), row.value, ...key]);
      if (n) counts[state === "plaintext" ? "sealed" : "resealed"]++;
    }
    if (rows.length < BATCH) return;
    const last = rows.at(-1)!;
    after = col.key.map((k) => last[k]);
  }
}
