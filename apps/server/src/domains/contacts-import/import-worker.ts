import { AppError } from "../../core/errors.js";
import { workerMain } from "../../core/worker-main.js";
import type { ImportInput, ImportResult } from "./import-thread.js";
import { checkUpload, importRows } from "./importer.js";

/**
 * The contacts import's worker thread (started by import-thread.ts; bundled as
 * dist/contacts-import-worker.js). `check`: reads the uploaded file from disk, checks its encoding and
 * header, parses it whole and counts its rows (the upload's check). `import`: validates and upserts
 * the rows, read as a stream, through one connection of its own and reports the counts after each
 * batch, waiting for the main thread (which saves and announces the progress) before the next one.
 */
await workerMain<ImportInput>(async ({ input, sql, progress }): Promise<ImportResult> => {
  try {
    if (input.mode === "check") return await checkUpload(input.file);
    return { counts: await importRows(sql, input.companyId, input.source, (counts) => progress(counts)) };
  } catch (err) {
    if (err instanceof AppError) return { refused: err.message };
    throw err;
  }
});
