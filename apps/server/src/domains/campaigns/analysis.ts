import { rm } from "node:fs/promises";
import { z } from "zod";
import { CAMPAIGN_MESSAGES } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { analyseInWorker, analysisErrorMessage } from "./analysis-thread.js";
import { CampaignFileError } from "./encoding.js";
import { emitCampaign } from "./events.js";
import type { RecipientsInput } from "./read-recipients.js";

export const ANALYSIS_JOB = "campaigns.analyse";
export const analysisJobPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int() });
export type AnalysisJobPayload = z.infer<typeof analysisJobPayload>;

export interface AnalysisHooks {
  /** Called after each batch is stored (tests stop an analysis mid-way here to prove a retry restarts cleanly). */
  afterBatch?: (batch: number) => void | Promise<void>;
}

interface CampaignToAnalyse {
  status: string;
  file_path: string;
  templates: { id: number; header_format: string; components: unknown; status: string }[];
}

/**
 * The durable analysis of a campaign's CSV (spec 3 §5): ANALYZING → READY with one recipient row per
 * data line (invalid ones with their reason), or ERROR with the message. The file is read and the
 * recipients stored by a worker thread with a capped heap (analysis-thread.ts, read-recipients.ts):
 * the analysis's garbage is collected there, never in the main thread's heap, which serves HTTP. A
 * thread that runs out of that heap or dies ends the campaign in ERROR with the catalogue's message.
 *
 * Restart after a crash: the handler first deletes the campaign's recipient rows and starts from the
 * file again, and the outcome (status, counters) is written in one statement at the end, so a retried
 * job never leaves a half campaign. A campaign no longer ANALYZING (finished by an earlier attempt) is
 * left alone and only its leftover file removed.
 */
export async function analyseCampaign(ctx: AppContext, payload: AnalysisJobPayload, hooks: AnalysisHooks = {}): Promise<void> {
  const { companyId, campaignId } = payload;
  const c = await ctx.sql.maybe<CampaignToAnalyse>(
    `SELECT c.status, c.file_path,
            COALESCE((SELECT json_agg(json_build_object('id', t.id, 'header_format', t.header_format, 'components', t.components, 'status', t.status) ORDER BY ct.position)
                        FROM campaign_templates ct JOIN whatsapp_templates t ON t.company_id = ct.company_id AND t.id = ct.template_id
                       WHERE ct.company_id = c.company_id AND ct.campaign_id = c.id), '[]') AS templates
       FROM campaigns c WHERE c.company_id = $1 AND c.id = $2`,
    [companyId, campaignId],
  );
  if (!c) return;
  if (c.status !== "ANALYZING") {
    if (c.file_path) await removeFile(ctx, c.file_path, payload);
    return;
  }
  await ctx.sql.exec("DELETE FROM campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
  await ctx.sql.exec("UPDATE campaigns SET analysed_rows = 0, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, campaignId]);

  let outcome: { total: number; invalid: number; encoding: string };
  try {
    if (!c.file_path) throw new CampaignFileError(CAMPAIGN_MESSAGES.fileRequired);
    const input: RecipientsInput = { companyId, campaignId, filePath: c.file_path, templates: c.templates };
    outcome = await analyseInWorker(ctx, input, (batch) => hooks.afterBatch?.(batch));
  } catch (err) {
    const message = analysisErrorMessage(err);
    if (message === null) throw err; // the database or the disk failed, or the server is closing: pg-boss retries from the file
    await endInError(ctx, payload, message, c.file_path);
    return;
  }
  await ctx.sql.exec(
    `UPDATE campaigns SET status = 'READY', count_total = $3, count_invalid = $4, analysed_rows = $3, encoding = $5, error_message = '',
            file_path = '', updated_at = now()
      WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
    [companyId, campaignId, outcome.total, outcome.invalid, outcome.encoding],
  );
  await removeFile(ctx, c.file_path, payload);
  await emitCampaign(ctx, companyId, campaignId, "update");
}

/** What the list shows when the analysis failed on every attempt (the database or the disk, not the file). */
export const ANALYSIS_GAVE_UP = "Não foi possível analisar o arquivo (falha interna). Crie a campanha novamente.";

/**
 * The analysis job's last attempt failed (its retries are used up: the database or the disk kept
 * failing): the campaign ends in ERROR with a message instead of showing 'Em Análise' forever.
 */
export async function analysisGaveUp(ctx: AppContext, payload: AnalysisJobPayload): Promise<void> {
  const { companyId, campaignId } = payload;
  const file = await ctx.sql.tx(async (tx) => {
    const c = await tx.maybe<{ file_path: string }>("SELECT file_path FROM campaigns WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING' FOR UPDATE", [
      companyId,
      campaignId,
    ]);
    if (!c) return null;
    await tx.exec("DELETE FROM campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
    await tx.exec(
      `UPDATE campaigns SET status = 'ERROR', error_message = $3, count_total = 0, count_invalid = 0, analysed_rows = 0, file_path = '', updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [companyId, campaignId, ANALYSIS_GAVE_UP],
    );
    return c;
  });
  if (!file) return;
  if (file.file_path) await removeFile(ctx, file.file_path, payload);
  await emitCampaign(ctx, companyId, campaignId, "update");
}

/** ANALYZING → ERROR with the message, no recipients left, the file removed. */
async function endInError(ctx: AppContext, payload: AnalysisJobPayload, message: string, file: string): Promise<void> {
  const { companyId, campaignId } = payload;
  await ctx.sql.tx(async (tx) => {
    await tx.exec("DELETE FROM campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
    await tx.exec(
      `UPDATE campaigns SET status = 'ERROR', error_message = $3, count_total = 0, count_invalid = 0, analysed_rows = 0,
              file_path = '', updated_at = now()
        WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
      [companyId, campaignId, message],
    );
  });
  if (file) await removeFile(ctx, file, payload);
  await emitCampaign(ctx, companyId, campaignId, "update");
}

async function removeFile(ctx: AppContext, file: string, payload: AnalysisJobPayload): Promise<void> {
  await rm(file, { force: true }).catch((err: unknown) => ctx.log.error({ err, ...payload, file }, "could not delete an analysed campaign file"));
}
