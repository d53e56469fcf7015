import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CAMPAIGN_MESSAGES, EMAIL_CAMPAIGN_MESSAGES, LIMITS } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { EMAIL_ANALYSIS_JOB } from "./analysis.js";
import { emitEmailCampaign } from "./events.js";
import { emailCampaignNotFound, getEmailCampaign } from "./service.js";
import { findEmailCampaign } from "./repository.js";

/** DATA_DIR/email-campaigns/<company>/: files waiting for their analysis. */
export const emailCampaignDir = (dataDir: string, companyId: number) => path.join(dataDir, "email-campaigns", String(companyId));

/**
 * PUT upload_url (the bearer session; another company's campaign is 404): the CSV body STREAMED to disk,
 * at most 100 MB (the rest of an oversized body is read and dropped so the client hears the answer),
 * type text/csv; then in one transaction MISSING_FILE → ANALYZING and the durable analysis job.
 */
export async function receiveEmailCampaignFile(ctx: AppContext, companyId: number, id: number, contentType: string, body: Readable) {
  const campaign = await findEmailCampaign(ctx.sql, companyId, id);
  if (!campaign) {
    body.resume();
    throw emailCampaignNotFound();
  }
  if (contentType.split(";")[0]!.trim().toLowerCase() !== "text/csv") {
    body.resume();
    throw new AppError("ERR_CAMPAIGN_FILE_EXTENSION", CAMPAIGN_MESSAGES.extension, { fields: { file: CAMPAIGN_MESSAGES.extension } });
  }
  if (campaign.status !== "MISSING_FILE") {
    body.resume();
    throw new AppError("ERR_EMAIL_CAMPAIGN_FILE_ALREADY_SENT", EMAIL_CAMPAIGN_MESSAGES.fileAlreadySent);
  }
  const dir = emailCampaignDir(ctx.config.dataDir, companyId);
  await mkdir(dir, { recursive: true });
  let stored: string | null = path.join(dir, `upload-${randomBytes(12).toString("hex")}.csv`);
  let size = 0;
  let tooBig = false;
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > LIMITS.campaignCsvMaxBytes) tooBig = true;
      done(null, tooBig ? undefined : chunk);
    },
  });
  try {
    await pipeline(body, limiter, createWriteStream(stored, { mode: 0o640 }));
    if (tooBig) throw new AppError("ERR_CAMPAIGN_FILE_TOO_LARGE", CAMPAIGN_MESSAGES.tooBig, { fields: { file: CAMPAIGN_MESSAGES.tooBig } });
    if (size === 0) throw new AppError("ERR_CAMPAIGN_FILE_REQUIRED", CAMPAIGN_MESSAGES.fileRequired, { fields: { file: CAMPAIGN_MESSAGES.fileRequired } });
    const target = path.join(dir, `${id}.csv`);
    const moved = await ctx.sql.tx(async (tx) => {
      const n = await tx.exec(
        "UPDATE email_campaigns SET status = 'ANALYZING', file_path = $3, updated_at = now() WHERE company_id = $1 AND id = $2 AND status = 'MISSING_FILE'",
        [companyId, id, target],
      );
      if (!n) return false;
      await rename(stored!, target);
      stored = target; // removed below if the transaction fails
      await ctx.jobs.send(EMAIL_ANALYSIS_JOB, { companyId, campaignId: id }, { db: tx, singletonKey: `email-campaign-analysis-${id}` });
      return true;
    });
    if (!moved) throw new AppError("ERR_EMAIL_CAMPAIGN_FILE_ALREADY_SENT", EMAIL_CAMPAIGN_MESSAGES.fileAlreadySent);
    stored = null; // the analysis owns the file now
  } finally {
    if (stored) await rm(stored, { force: true }).catch((err: unknown) => ctx.log.error({ err, file: stored }, "could not remove a refused e-mail campaign upload"));
  }
  await emitEmailCampaign(ctx, companyId, id, "update");
  return getEmailCampaign(ctx, companyId, id);
}
