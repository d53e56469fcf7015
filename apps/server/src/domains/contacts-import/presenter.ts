import type { ContactImport } from "@atende/shared";
import type { ImportRow } from "./repository.js";

export function presentImport(row: ImportRow): ContactImport {
  return {
    jobId: row.id,
    status: row.status,
    fileName: row.file_name,
    total: row.total,
    processed: row.processed,
    imported: row.imported,
    updated: row.updated,
    rejected: row.rejected,
    errors: row.errors,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
  };
}
