import { rm } from "node:fs/promises";
import { z } from "zod";
import { CAMPAIGN_MESSAGES } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { CampaignFileError } from "../campaigns/encoding.js";
import { analysisErrorMessage, analysisInWorker } from "../campaigns/analysis-thread.js";
import type { EmailAnalysisInput, EmailAnalysisOutcome } from "./read-recipients.js";
import { skipUnsent } from "./actions.js";
import { emitEmailCampaign } from "./events.js";

export const EMAIL_ANALYSIS_JOB = "email-campaigns.analyse";
export const emailAnalysisPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int() });
export type EmailAnalysisPayload = z.infer<typeof emailAnalysisPayload>;

/**
 * The durable analysis of an e-mail campaign's CSV (spec 3 §5), the WhatsApp analysis' shape: the
 * encoding in a first streamed pass (the shared `detectEncoding`), then csv-parse (`;`) with the headers
 * telefone, cpf, email; every other column is a variable and the template's {{placeholders}} must all
 * be among them. Each row: the address' syntax, the block list on its variables, the company's opt-out
 * list (one query per 2,000 rows); duplicates by one UPDATE at the end. ANALYZING → ACTIVE (with the
 * counts) or ERROR (the message), one guarded statement. A retried attempt starts over (rows deleted
 * first); a bad file is an outcome, a database or disk failure is thrown for pg-boss to retry.
 */
export async function analyseEmailCampaign(ctx: AppContext, payload: EmailAnalysisPayload): Promise<void> {
  const { companyId, campaignId } = payload;
  const c = await ctx.sql.maybe<{ status: string; file_path: string; subject: string; html: string }>(
    "SELECT status, file_path, subject, html FROM email_campaigns WHERE company_id = $1 AND id = $2",
    [companyId, campaignId],
  );
  if (!c) return;
  if (c.status !== "ANALYZING") {
    if (c.file_path) await removeFile(ctx, c.file_path, payload);
    return;
  }
  await ctx.sql.exec("DELETE FROM email_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
  let outcome: EmailAnalysisOutcome;
  try {
    if (!c.file_path) throw new CampaignFileError(CAMPAIGN_MESSAGES.fileRequired);
    outcome = await analysisInWorker<EmailAnalysisOutcome>(ctx, {
      callerUrl: import.meta.url,
      tsEntry: "./analysis-worker.ts",
      bundle: "email-analysis-worker",
      name: "e-mail campaign analysis",
      input: { payload, campaign: c } satisfies EmailAnalysisInput,
      log: payload,
    });
  } catch (err) {
    const message = analysisErrorMessage(err);
    if (message === null) throw err; // database or disk: pg-boss retries
    await ctx.sql.tx(async (tx) => {
      await tx.exec("DELETE FROM email_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
      await tx.exec(
        `UPDATE email_campaigns SET status = 'ERROR', error_message = $3, count_total = 0, count_invalid = 0, analysed_rows = 0, file_path = '', updated_at = now()
          WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
        [companyId, campaignId, message],
      );
    });
    if (c.file_path) await removeFile(ctx, c.file_path, payload);
    await emitEmailCampaign(ctx, companyId, campaignId, "update");
    return;
  }
  const activated = await ctx.sql.exec(
    `UPDATE email_campaigns SET status = 'ACTIVE', count_total = $3, count_invalid = $4, analysed_rows = $3, encoding = $5, variables = $6,
            error_message = '', file_path = '', updated_at = now()
      WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
    [companyId, campaignId, outcome.total, outcome.invalid, outcome.encoding, outcome.variables],
  );
  if (!activated) {
    // cancelled while the file was read: the rows are listed, none is ever sent
    await ctx.sql.tx(async (tx) => {
      const now = await tx.maybe<{ status: string }>("SELECT status FROM email_campaigns WHERE company_id = $1 AND id = $2 FOR UPDATE", [companyId, campaignId]);
      if (now?.status !== "CANCELLED") return;
      await tx.exec("UPDATE email_campaigns SET count_total = $3, count_invalid = $4, file_path = '' WHERE company_id = $1 AND id = $2", [
        companyId,
        campaignId,
        outcome.total,
        outcome.invalid,
      ]);
      await skipUnsent(tx, companyId, campaignId);
    });
  }
  await removeFile(ctx, c.file_path, payload);
  await emitEmailCampaign(ctx, companyId, campaignId, "update");
}

async function removeFile(ctx: AppContext, file: string, payload: EmailAnalysisPayload): Promise<void> {
  await rm(file, { force: true }).catch((err: unknown) => ctx.log.error({ err, ...payload, file }, "could not delete an analysed e-mail campaign file"));
}
