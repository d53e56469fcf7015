import { channel, CONTACT_IMPORT_MESSAGES, CONTACT_IMPORT_SYNC_MAX_ROWS, type ContactImportProgressEvent } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { decodeCsv, EncodingError } from "./decode.js";
import { checkHeader, countRows, importRows, type ImportCounts } from "./importer.js";
import { presentImport } from "./presenter.js";
import * as repo from "./repository.js";

export const IMPORT_JOB = "contacts.import";
export const importJobPayload = z.object({ companyId: z.number().int().positive(), importId: z.uuid() });

const PROGRESS_EVERY_MS = 250;

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
  const total = await countRows(text);
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

/** The background import: progress saved and announced as it goes; the final counts when it ends. */
export async function runImportJob(ctx: AppContext, payload: z.infer<typeof importJobPayload>) {
  const { companyId, importId } = payload;
  const claimed = await repo.claimImport(ctx.sql, companyId, importId);
  if (!claimed) return;
  const emit = progressEmitter(ctx, companyId, importId, claimed.total);
  emit("running", { processed: 0, imported: 0, updated: 0, rejected: 0, errors: [] }, true);
  try {
    const counts = await importRows(ctx.sql, companyId, claimed.content, async (c) => {
      await repo.saveProgress(ctx.sql, companyId, importId, c);
      emit("running", c);
    });
    await repo.finishImport(ctx.sql, companyId, importId, counts);
    emit("done", counts, true);
  } catch (err) {
    const message = err instanceof AppError ? err.message : CONTACT_IMPORT_MESSAGES.parseError;
    const row = await repo.failImport(ctx.sql, companyId, importId, message);
    if (row) emit("failed", row, true);
  }
}

export async function getImport(ctx: AppContext, companyId: number, jobId: string) {
  const row = await repo.findImport(ctx.sql, companyId, jobId);
  if (!row) throw new AppError("ERR_NOT_FOUND", "Importação não encontrada");
  return presentImport(row);
}
