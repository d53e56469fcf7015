import { channel, CONTACT_IMPORT_MESSAGES, CONTACT_IMPORT_SYNC_MAX_ROWS, type ContactImportProgressEvent } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { decodeCsv, EncodingError } from "./decode.js";
import { WorkerThreadDied } from "../../core/worker-thread.js";
import { countInWorker, importInWorker } from "./import-thread.js";
import { checkHeader, countRows, importRows, type ImportCounts } from "./importer.js";
import { presentImport } from "./presenter.js";
import * as repo from "./repository.js";

export const IMPORT_JOB = "contacts.import";
export const importJobPayload = z.object({ companyId: z.number().int().positive(), importId: z.uuid() });

const PROGRESS_EVERY_MS = 250;
/** Files up to this size (a few thousand rows) are counted on the request's thread: a worker's start would cost more. */
const COUNT_INLINE_MAX_BYTES = 256 * 1024;

function progressEmitter(ctx: AppContext, companyId: number, jobId: string, total: number) {
  let last = 0;
  return (status: ContactImportProgressEvent["status"], c: ImportCounts, force = false) => {
    const now = Date.now();
    if (!force && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    const event: ContactImportProgressEvent = {
      action: "import-progress",
      jobId,
      status,
      processed: c.processed,
      total,
      imported: c.imported,
      updated: c.updated,
      rejected: c.rejected,
    };
    ctx.realtime.emit(rooms.company(companyId), channel.contact(companyId), event);
  };
}

/**
 * Checks the file (encoding, header, CSV syntax) before any write, then imports it: during the request
 * when it has fewer than CONTACT_IMPORT_SYNC_MAX_ROWS rows, else in a durable background job.
 */
export async function startImport(ctx: AppContext, companyId: number, userId: number, file: { fileName: string; data: Buffer }) {
  if (file.data.length === 0) throw new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.noFile, { fields: { file: CONTACT_IMPORT_MESSAGES.noFile } });
  let text: string;
  try {
    text = decodeCsv(file.data).text;
  } catch (err) {
    if (err instanceof EncodingError) throw new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.parseError, { fields: { file: CONTACT_IMPORT_MESSAGES.parseError } });
    throw err;
  }
  checkHeader(text);
  // a large file is parsed in a worker thread, so its 100k records' garbage stays off this heap
  const total = file.data.length > COUNT_INLINE_MAX_BYTES ? await countInWorker(ctx, companyId, text) : await countRows(text);
  const fileName = file.fileName.slice(0, 200);

  if (total < CONTACT_IMPORT_SYNC_MAX_ROWS) {
    const row = await repo.insertImport(ctx.sql, companyId, { userId, fileName, total, status: "running", content: null });
    const counts = await importRows(ctx.sql, companyId, text);
    const done = await repo.finishImport(ctx.sql, companyId, row.id, counts);
    progressEmitter(ctx, companyId, row.id, total)("done", counts, true);
    return { async: false, result: presentImport(done) };
  }

  const row = await repo.insertImport(ctx.sql, companyId, { userId, fileName, total, status: "queued", content: text });
  await ctx.jobs.send(IMPORT_JOB, { companyId, importId: row.id }, { singletonKey: `contact-import-${row.id}` });
  return { async: true, result: presentImport(row) };
}

/**
 * The background import, in a worker thread (import-thread.ts): progress saved and announced as it
 * goes; the final counts when it ends. A refused file or a thread that ran out of memory or crashed
 * ends the import failed; a database failure or the server closing fails the job, which pg-boss
 * retries (the claim starts the import again; its upserts make a second pass harmless).
 */
export async function runImportJob(ctx: AppContext, payload: z.infer<typeof importJobPayload>) {
  const { companyId, importId } = payload;
  const claimed = await repo.claimImport(ctx.sql, companyId, importId);
  if (!claimed) return;
  const emit = progressEmitter(ctx, companyId, importId, claimed.total);
  emit("running", { processed: 0, imported: 0, updated: 0, rejected: 0, errors: [] }, true);
  try {
    const counts = await importInWorker(ctx, { companyId, importId, text: claimed.content }, async (c) => {
      await repo.saveProgress(ctx.sql, companyId, importId, c);
      emit("running", c);
    });
    await repo.finishImport(ctx.sql, companyId, importId, counts);
    emit("done", counts, true);
  } catch (err) {
    if (!(err instanceof AppError || err instanceof WorkerThreadDied)) throw err;
    const message = err instanceof AppError ? err.message : CONTACT_IMPORT_MESSAGES.parseError;
    const row = await repo.failImport(ctx.sql, companyId, importId, message);
    if (row) emit("failed", row, true);
  }
}

/** The job's retries are used up (the database kept failing): the import ends failed instead of 'running' forever. */
export async function importGaveUp(ctx: AppContext, payload: z.infer<typeof importJobPayload>) {
  const row = await repo.failImport(ctx.sql, payload.companyId, payload.importId, CONTACT_IMPORT_MESSAGES.parseError);
  if (row) progressEmitter(ctx, payload.companyId, payload.importId, row.total)("failed", row, true);
}

export async function getImport(ctx: AppContext, companyId: number, jobId: string) {
  const row = await repo.findImport(ctx.sql, companyId, jobId);
  if (!row) throw new AppError("ERR_NOT_FOUND", "Importação não encontrada");
  return presentImport(row);
}
