import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import { CONTACT_IMPORT_MESSAGES } from "@atende/shared";
import { AppError } from "../../core/errors.js";

/** An uploaded import file, stored on disk: the caller moves it or removes it. */
export interface ImportUpload {
  fileName: string;
  path: string;
  size: number;
}

/** Where a company's import files are: uploads being checked, and imports waiting for or running their job. */
export function importDir(dataDir: string, companyId: number): string {
  return path.join(dataDir, "contact-imports", String(companyId));
}

/** The file of a queued import: its job reads it from there (any process: DATA_DIR is shared, docs/deployment.md). */
export function importFile(dataDir: string, companyId: number, importId: string): string {
  return path.join(importDir(dataDir, companyId), `${importId}.csv`);
}

export const noFile = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.noFile, { fields: { file: CONTACT_IMPORT_MESSAGES.noFile } });

/**
 * The request's first file, STREAMED to `DATA_DIR/contact-imports/<company>/upload-<random>.csv`: never
 * held whole in memory. Busboy stops writing at `maxBytes` and marks the stream truncated (the rest of
 * the file is read and dropped, so the client is never cut off mid-upload): the spec's size message.
 */
export async function receiveImportUpload(request: FastifyRequest, dataDir: string, companyId: number, maxBytes: number): Promise<ImportUpload> {
  if (!request.isMultipart()) throw noFile();
  // without throwFileSizeLimit, a file over the limit is marked truncated instead of failing the stream
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 }, throwFileSizeLimit: false });
  if (!part) throw noFile();
  const dir = importDir(dataDir, companyId);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `upload-${randomBytes(12).toString("hex")}.csv`);
  try {
    await pipeline(part.file, createWriteStream(file, { mode: 0o640 }));
    if (part.file.truncated) {
      throw new AppError("ERR_PAYLOAD_TOO_LARGE", tooBigMessage(maxBytes), { fields: { file: tooBigMessage(maxBytes) } });
    }
    return { fileName: part.filename, path: file, size: (await stat(file)).size };
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
}

/** The spec's message for its 5 MB; an installation that set CONTACTS_IMPORT_MAX_MB gets its own figure. */
export function tooBigMessage(maxBytes: number): string {
  const mb = Math.floor(maxBytes / (1024 * 1024));
  return mb === 5 ? CONTACT_IMPORT_MESSAGES.tooBig : CONTACT_IMPORT_MESSAGES.tooBig.replace("5MB", `${mb}MB`);
}
