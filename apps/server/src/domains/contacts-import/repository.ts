import type { ContactImportStatus } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import type { ImportEncoding } from "./decode.js";
import type { ImportCounts } from "./importer.js";

export interface ImportRow {
  id: string;
  company_id: number;
  status: ContactImportStatus;
  file_name: string;
  total: number;
  processed: number;
  imported: number;
  updated: number;
  rejected: number;
  errors: { line: number; reason: string }[];
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const COLUMNS = "id, company_id, status, file_name, total, processed, imported, updated, rejected, errors, error, created_at, finished_at";

/**
 * A new import. A queued one waits for its job either as its file on disk (`fileEncoding`: the file's
 * encoding) or, as imports queued before migration 0818 did, as its decoded text (`content`).
 */
export function insertImport(
  sql: Sql,
  companyId: number,
  v: { userId: number; fileName: string; total: number; status: ContactImportStatus; content: string | null; fileEncoding?: ImportEncoding | null },
) {
  return sql.one<ImportRow>(
    `INSERT INTO contact_imports (company_id, user_id, file_name, total, status, content, file_encoding) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [companyId, v.userId, v.fileName, v.total, v.status, v.content, v.fileEncoding ?? null],
  );
}

export function findImport(sql: Sql, companyId: number, id: string) {
  return sql.maybe<ImportRow>(`SELECT ${COLUMNS} FROM contact_imports WHERE company_id = $1 AND id = $2`, [companyId, id]);
}

/** Claims a queued (or interrupted) import for this worker: its file's encoding, or its text (queued before 0818). */
export function claimImport(sql: Sql, companyId: number, id: string) {
  return sql.maybe<{ content: string | null; file_encoding: ImportEncoding | null; total: number }>(
    `UPDATE contact_imports SET status = 'running', processed = 0, imported = 0, updated = 0, rejected = 0, errors = '[]'
      WHERE company_id = $1 AND id = $2 AND status IN ('queued', 'running') AND (content IS NOT NULL OR file_encoding IS NOT NULL)
      RETURNING content, file_encoding, total`,
    [companyId, id],
  );
}

export function saveProgress(sql: Sql, companyId: number, id: string, c: ImportCounts) {
  return sql.exec(
    "UPDATE contact_imports SET processed = $3, imported = $4, updated = $5, rejected = $6, errors = $7::jsonb WHERE company_id = $1 AND id = $2",
    [companyId, id, c.processed, c.imported, c.updated, c.rejected, JSON.stringify(c.errors)],
  );
}

export function finishImport(sql: Sql, companyId: number, id: string, c: ImportCounts) {
  return sql.one<ImportRow>(
    `UPDATE contact_imports SET status = 'done', content = NULL, finished_at = now(), total = $3, processed = $3,
            imported = $4, updated = $5, rejected = $6, errors = $7::jsonb
      WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [companyId, id, c.processed, c.imported, c.updated, c.rejected, JSON.stringify(c.errors)],
  );
}

export function failImport(sql: Sql, companyId: number, id: string, error: string) {
  return sql.maybe<ImportRow>(
    `UPDATE contact_imports SET status = 'failed', content = NULL, finished_at = now(), error = $3
      WHERE company_id = $1 AND id = $2 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
    [companyId, id, error.slice(0, 500)],
  );
}

/**
 * One page of the company's contacts after `afterId`, in id order (the export walks the table with it);
 * groups and contacts erased at their request (LGPD placeholders) are left out.
 */
export function exportBatch(sql: Sql, companyId: number, afterId: number, limit: number) {
  return sql.many<{ id: number; name: string; number: string; document: string; email: string }>(
    `SELECT id, name, number, document, email FROM contacts
      WHERE company_id = $1 AND id > $2 AND NOT is_group AND erased_at IS NULL ORDER BY id LIMIT $3`,
    [companyId, afterId, limit],
  );
}
