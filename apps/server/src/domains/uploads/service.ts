import { LIMITS, type UploadedFile } from "@atende/shared";
import type { Readable } from "node:stream";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { mediaStorage } from "../../core/storage.js";
import type { OutgoingFile } from "../messages/send-message.js";
import * as repo from "./repository.js";
import { sniffUploadType } from "./sniff.js";

const present = (row: repo.UploadRow): UploadedFile => ({
  id: Number(row.id),
  fileName: row.file_name,
  mimetype: row.mimetype as UploadedFile["mimetype"],
  size: row.size,
  url: `/api/upload/${row.id}`,
});

/**
 * Keeps one file for the actor's company (spec 2 §7, POST /upload): at most 10 MB, of a type its first
 * bytes show (UPLOAD_MEDIA_TYPES), stored through core/storage under the company's key prefix. A
 * companyId sent with the form is never read: the file is always the uploader's company's.
 */
export async function saveUpload(ctx: AppContext, actor: RequestActor, file: OutgoingFile | undefined): Promise<UploadedFile> {
  if (!file || file.data.length === 0) throw new AppError("ERR_VALIDATION", "Por favor, selecione um arquivo.", { fields: { file: "Required" } });
  // readMultipart and the multipart plugin stop a larger body; this keeps the rule true for any caller
  if (file.data.length > LIMITS.attachmentMaxBytes) throw new AppError("ERR_PAYLOAD_TOO_LARGE", "O arquivo excede o tamanho máximo de 10MB");
  const mimetype = sniffUploadType(file.data);
  if (!mimetype) throw new AppError("ERR_UPLOAD_TYPE_UNSUPPORTED", "Tipo de arquivo não permitido. Envie uma imagem (PNG, JPG, GIF, WEBP), PDF, áudio (MP3, OGG) ou vídeo MP4.");
  const storage = mediaStorage(ctx.config.dataDir);
  const storageKey = await storage.put(actor.companyId, file.data, { fileName: file.fileName, mimetype });
  try {
    const row = await repo.insertUpload(ctx.sql, actor.companyId, { storageKey, fileName: file.fileName.slice(0, 255), mimetype, size: file.data.length, userId: actor.id });
    return present(row);
  } catch (err) {
    // no row points at the file: take it away, then answer with the database's error
    await storage.remove(storageKey).catch((removeErr: unknown) => ctx.log.error({ err: removeErr, storageKey }, "upload: orphaned file not removed"));
    throw err;
  }
}

/** The company's upload as a stream; another company's id (or a file gone from disk) is not found. */
export async function openUpload(ctx: AppContext, actor: RequestActor, id: number): Promise<{ stream: Readable; size: number; mimetype: string; fileName: string }> {
  const row = await repo.findUpload(ctx.sql, actor.companyId, id);
  const file = row ? await mediaStorage(ctx.config.dataDir).open(row.storage_key) : null;
  if (!row || !file) throw new AppError("ERR_NOT_FOUND", "Arquivo não encontrado");
  return { ...file, mimetype: row.mimetype, fileName: row.file_name };
}
