import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import { LIMITS } from "@atende/shared";

/** Where a company's campaign files wait for their analysis: DATA_DIR/campaigns/<company>/. */
export function campaignDir(dataDir: string, companyId: number): string {
  return path.join(dataDir, "campaigns", String(companyId));
}

export interface CampaignUpload {
  fields: Record<string, string | string[]>;
  /** The file as stored (a temporary name until the campaign exists), or why it was refused. */
  file: { tmpPath: string; fileName: string; size: number } | null;
  fileError: "extension" | "tooBig" | null;
}

/** The spec's rule (§5): extension csv and type text/csv (parameters such as charset allowed). */
export function acceptableCsv(fileName: string, mimetype: string): boolean {
  return /\.csv$/i.test(fileName) && mimetype.split(";")[0]!.trim().toLowerCase() === "text/csv";
}

const LIST_FIELDS = new Set(["businessIds", "templateIds", "phoneIds"]);

/**
 * Reads POST /campaigns: text fields in memory, the file STREAMED to disk (never held whole), at most
 * 100 MB (LIMITS.campaignCsvMaxBytes). The whole body is consumed before the caller validates, so a
 * refusal never leaves the client writing into a closed request; the caller removes `file.tmpPath`.
 */
export async function receiveCampaignUpload(request: FastifyRequest, dataDir: string, companyId: number): Promise<CampaignUpload> {
  const out: CampaignUpload = { fields: {}, file: null, fileError: null };
  const dir = campaignDir(dataDir, companyId);
  // throwFileSizeLimit (a runtime option of @fastify/multipart its types omit): a file over the limit is
  // marked truncated instead of failing the iterator, so the rest of the form is still read
  const options = { limits: { fileSize: LIMITS.campaignCsvMaxBytes, files: 1, fields: 200 }, throwFileSizeLimit: false };
  for await (const part of request.parts(options)) {
    if (part.type === "file") {
      if (part.fieldname !== "file" || out.file || out.fileError) {
        part.file.resume();
        continue;
      }
      if (!part.filename) {
        part.file.resume();
        continue;
      }
      if (!acceptableCsv(part.filename, part.mimetype)) {
        out.fileError = "extension";
        part.file.resume();
        continue;
      }
      await mkdir(dir, { recursive: true });
      const tmpPath = path.join(dir, `upload-${randomBytes(12).toString("hex")}.csv`);
      try {
        await pipeline(part.file, createWriteStream(tmpPath, { mode: 0o640 }));
      } catch (err) {
        await rm(tmpPath, { force: true });
        throw err;
      }
      // busboy stops writing at the limit and marks the stream truncated
      if (part.file.truncated) {
        await rm(tmpPath, { force: true });
        out.fileError = "tooBig";
        continue;
      }
      out.file = { tmpPath, fileName: part.filename, size: (await stat(tmpPath)).size };
    } else {
      const key = part.fieldname.replace(/\[\]$/, "");
      const value = String(part.value ?? "");
      if (LIST_FIELDS.has(key)) {
        const list = out.fields[key];
        out.fields[key] = Array.isArray(list) ? [...list, value] : [value];
      } else out.fields[key] = value;
    }
  }
  return out;
}
