import { CONTACT_IMPORT_MESSAGES } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { runInWorkerThread } from "../../core/worker-thread.js";
import type { ImportCounts } from "./importer.js";

export interface ImportInput {
  mode: "count" | "import";
  companyId: number;
  importId: string | null;
  text: string;
}

/** What import-worker.ts returns: the row count or the final counts, or the file refused (its message). */
export type ImportResult = { total: number } | { counts: ImportCounts } | { refused: string };

function runImportWorker(ctx: AppContext, input: ImportInput, onProgress?: (data: unknown) => Promise<void>) {
  return runInWorkerThread<ImportResult>(ctx, {
    callerUrl: import.meta.url,
    tsEntry: "./import-worker.ts",
    bundle: "contacts-import-worker",
    name: `contacts import (${input.mode})`,
    heapMb: ctx.config.contactsImportHeapMb,
    input,
    log: { companyId: input.companyId, importId: input.importId },
    onProgress,
  });
}

const refused = (message: string) => new AppError("ERR_VALIDATION", message || CONTACT_IMPORT_MESSAGES.parseError, { fields: { file: message || CONTACT_IMPORT_MESSAGES.parseError } });

/** Counts a large file's rows in a worker thread (a 100k-row parse leaves its garbage there); a malformed file is refused. */
export async function countInWorker(ctx: AppContext, companyId: number, text: string): Promise<number> {
  const result = await runImportWorker(ctx, { mode: "count", companyId, importId: null, text });
  if ("refused" in result) throw refused(result.refused);
  if (!("total" in result)) throw new Error("contacts import worker answered a count without one");
  return result.total;
}

/**
 * Imports the file's rows in a worker thread whose heap is capped (config.contactsImportHeapMb): a
 * 100k-row file's garbage (rows, batches, the repeated-number map) never grows the heap of the
 * thread that serves HTTP (core/worker-thread.ts). `onBatch` runs here after each batch. Rejects with
 * an AppError for a refused file, WorkerThreadDied / WorkerThreadFailed, or an Error when the server is
 * closing (the job is retried).
 */
export async function importInWorker(
  ctx: AppContext,
  input: { companyId: number; importId: string; text: string },
  onBatch: (counts: ImportCounts) => Promise<void>,
): Promise<ImportCounts> {
  const result = await runImportWorker(ctx, { mode: "import", ...input }, (counts) => onBatch(counts as ImportCounts));
  if ("refused" in result) throw refused(result.refused);
  if (!("counts" in result)) throw new Error("contacts import worker ended an import without its counts");
  return result.counts;
}
