import { CONTACT_IMPORT_MESSAGES } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { runInWorkerThread } from "../../core/worker-thread.js";
import type { ImportEncoding } from "./decode.js";
import type { ImportCounts, ImportSource } from "./importer.js";

/** `check`: an uploaded file's encoding, header and syntax, and its rows counted; `import`: its rows stored. */
export type ImportInput =
  | { mode: "check"; companyId: number; importId: null; file: string }
  | { mode: "import"; companyId: number; importId: string; source: ImportSource };

/** What import-worker.ts returns: the check's findings or the final counts, or the file refused (its message). */
export type ImportResult = { encoding: ImportEncoding; total: number } | { counts: ImportCounts } | { refused: string };

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

/**
 * Checks a large uploaded file in a worker thread (its encoding, header and syntax; a 100k-row parse
 * leaves its garbage there) and counts its rows; a malformed file is refused.
 */
export async function checkInWorker(ctx: AppContext, companyId: number, file: string): Promise<{ encoding: ImportEncoding; total: number }> {
  const result = await runImportWorker(ctx, { mode: "check", companyId, importId: null, file });
  if ("refused" in result) throw refused(result.refused);
  if (!("total" in result)) throw new Error("contacts import worker answered a check without a count");
  return result;
}

/**
 * Imports the file's rows in a worker thread whose heap is capped (config.contactsImportHeapMb): a
 * large file's garbage (rows, batches, the repeated-number map) never grows the heap of the thread
 * that serves HTTP (core/worker-thread.ts). `onBatch` runs here after each batch. Rejects with an
 * AppError for a refused file, WorkerThreadDied / WorkerThreadFailed, or an Error when the server is
 * closing (the job is retried).
 */
export async function importInWorker(
  ctx: AppContext,
  input: { companyId: number; importId: string; source: ImportSource },
  onBatch: (counts: ImportCounts) => Promise<void>,
): Promise<ImportCounts> {
  const result = await runImportWorker(ctx, { mode: "import", ...input }, (counts) => onBatch(counts as ImportCounts));
  if ("refused" in result) throw refused(result.refused);
  if (!("counts" in result)) throw new Error("contacts import worker ended an import without its counts");
  return result.counts;
}
