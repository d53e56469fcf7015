import { rename, rm } from "node:fs/promises";
import { channel, CONTACT_IMPORT_MESSAGES, CONTACT_IMPORT_SYNC_MAX_ROWS, type ContactImportProgressEvent } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { WorkerThreadDied } from "../../core/worker-thread.js";
import { checkInWorker, importInWorker } from "./import-thread.js";
import { checkUpload, importRows, type ImportCounts, type ImportSource } from "./importer.js";
import { presentImport } from "./presenter.js";
import * as repo from "./repository.js";
import { importFile, noFile, type ImportUpload } from "./upload.js";

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
 * Checks the uploaded file (encoding, header, CSV syntax) before any write, then imports it: during the
 * request when it has fewer than CONTACT_IMPORT_SYNC_MAX_ROWS rows, else in a durable background job
 * that reads the file from disk (it is moved to importFile(), and removed when the import ends). The
 * file is read as a stream each time, never held whole. The caller removes `upload.path` afterwards
 * (a no-op once it was moved).
 */
export async function startImport(ctx: AppContext, companyId: number, userId: number, upload: ImportUpload) {
  if (upload.size === 0) throw noFile();
  // a large file is checked in a worker thread, so its 100k records' garbage stays off this heap
  const { encoding, total } = upload.size > COUNT_INLINE_MAX_BYTES ? await checkInWorker(ctx, companyId, upload.path) : await checkUpload(upload.path);
  const fileName = upload.fileName.slice(0, 200);

  if (total < CONTACT_IMPORT_SYNC_MAX_ROWS) {
    const row = await repo.insertImport(ctx.sql, companyId, { userId, fileName, total, status: "running", content: null });
    const counts = await importRows(ctx.sql, companyId, { file: upload.path, encoding });
    const done = await repo.finishImport(ctx.sql, companyId, row.id, counts);
    progressEmitter(ctx, companyId, row.id, total)("done", counts, true);
    return { async: false, result: presentImport(done) };
  }

  // the row, the file in its place and the job together: a failure leaves none of them
  const moved = { to: null as string | null };
  try {
    const row = await ctx.sql.tx(async (tx) => {
      const queued = await repo.insertImport(tx, companyId, { userId, fileName, total, status: "queued", content: null, fileEncoding: encoding });
      moved.to = importFile(ctx.config.dataDir, companyId, queued.id);
      await rename(upload.path, moved.to);
      await ctx.jobs.send(IMPORT_JOB, { companyId, importId: queued.id }, { db: tx, singletonKey: `contact-import-${queued.id}` });
      return queued;
    });
    return { async: true, result: presentImport(row) };
  } catch (err) {
    const file = moved.to;
    if (file) await rm(file, { force: true }).catch((rmErr: unknown) => ctx.log.error({ err: rmErr, companyId, file }, "could not remove a contacts import's file after its queueing failed"));
    throw err;
  }
}

/** An ended import's file goes (a failure to remove it is logged: the file would stay on disk). */
async function removeImportFile(ctx: AppContext, companyId: number, importId: string): Promise<void> {
  const file = importFile(ctx.config.dataDir, companyId, importId);
  await rm(file, { force: true }).catch((err: unknown) => ctx.log.error({ err, companyId, importId, file }, "could not remove an ended contacts import's file"));
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
  // an import queued before migration 0818 kept its text in the row
  const source: ImportSource =
    claimed.content !== null ? { text: claimed.content } : { file: importFile(ctx.config.dataDir, companyId, importId), encoding: claimed.file_encoding! };
  try {
    const counts = await importInWorker(ctx, { companyId, importId, source }, async (c) => {
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
  await removeImportFile(ctx, companyId, importId);
}

/** The job's retries are used up (the database kept failing): the import ends failed instead of 'running' forever. */
export async function importGaveUp(ctx: AppContext, payload: z.infer<typeof importJobPayload>) {
  const row = await repo.failImport(ctx.sql, payload.companyId, payload.importId, CONTACT_IMPORT_MESSAGES.parseError);
  if (row) progressEmitter(ctx, payload.companyId, payload.importId, row.total)("failed", row, true);
  await removeImportFile(ctx, payload.companyId, payload.importId);
}

export async function getImport(ctx: AppContext, companyId: number, jobId: string) {
  const row = await repo.findImport(ctx.sql, companyId, jobId);
  if (!row) throw new AppError("ERR_NOT_FOUND", "Importação não encontrada");
  return presentImport(row);
}
