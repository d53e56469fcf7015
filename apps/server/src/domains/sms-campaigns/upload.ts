import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { LIMITS, SMS_CAMPAIGN_MESSAGES as M } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { acceptableCsv, campaignDir } from "../campaigns/upload.js";
import { SMS_ANALYSIS_JOB } from "./analysis.js";
import { smsNotifier } from "./events.js";

class TooLarge extends Error {}

/** Counts bytes and stops the pipe past `max` (the file is never held in memory). */
function sizeLimit(max: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) return done(new TooLarge());
      done(null, chunk);
    },
  });
}

/**
 * PUT upload_url (the user's bearer token authorizes it; the campaign must be the company's and still
 * MISSING_FILE): the raw text/csv body streamed to DATA_DIR/sms-campaigns/<company>/, at most 100 MB;
 * then in one transaction the campaign goes ANALYZING and its analysis job is queued.
 */
export async function receiveSmsCampaignFile(ctx: AppContext, companyId: number, id: number, contentType: string, body: Readable | null) {
  const c = await ctx.sql.maybe<{ status: string; file_name: string }>("SELECT status, file_name FROM sms_campaigns WHERE company_id = $1 AND id = $2", [companyId, id]);
  if (!c) {
    body?.resume();
    throw new AppError("ERR_SMS_CAMPAIGN_NOT_FOUND", M.notFound);
  }
  if (c.status !== "MISSING_FILE") {
    body?.resume();
    throw new AppError("ERR_SMS_CAMPAIGN_FILE_RECEIVED", M.notWaitingFile);
  }
  if (!acceptableCsv(c.file_name, contentType)) {
    body?.resume();
    throw new AppError("ERR_CAMPAIGN_FILE_EXTENSION", "Extensão não permitida.", { fields: { file: "Extensão não permitida." } });
  }
  if (!body) throw new AppError("ERR_CAMPAIGN_FILE_REQUIRED", M.fileRequired, { fields: { file: M.fileRequired } });
  const dir = path.join(campaignDir(ctx.config.dataDir, companyId), "sms");
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `upload-${randomBytes(12).toString("hex")}.csv`);
  let size = 0;
  try {
    await pipeline(body, sizeLimit(LIMITS.campaignCsvMaxBytes), async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        size += chunk.length;
        yield chunk;
      }
    }, createWriteStream(tmp, { mode: 0o640 }));
  } catch (err) {
    await rm(tmp, { force: true });
    if (err instanceof TooLarge) throw new AppError("ERR_CAMPAIGN_FILE_TOO_LARGE", "O arquivo excede o tamanho máximo permitido.", { fields: { file: "O arquivo excede o tamanho máximo permitido." } });
    throw err;
  }
  if (size === 0) {
    await rm(tmp, { force: true });
    throw new AppError("ERR_CAMPAIGN_FILE_REQUIRED", M.fileRequired, { fields: { file: M.fileRequired } });
  }
  const target = path.join(dir, `${id}.csv`);
  try {
    const moved = await ctx.sql.tx(async (tx) => {
      const n = await tx.exec(
        `UPDATE sms_campaigns SET status = 'ANALYZING', file_path = $3, file_size = $4, updated_at = now()
          WHERE company_id = $1 AND id = $2 AND status = 'MISSING_FILE'`,
        [companyId, id, target, size],
      );
      if (!n) return false;
      await rename(tmp, target);
      await ctx.jobs.send(SMS_ANALYSIS_JOB, { companyId, campaignId: id }, { db: tx, singletonKey: `sms-analysis-${id}` });
      return true;
    });
    if (!moved) throw new AppError("ERR_SMS_CAMPAIGN_FILE_RECEIVED", M.notWaitingFile);
  } finally {
    await rm(tmp, { force: true });
  }
  await smsNotifier(ctx).now(id);
}
