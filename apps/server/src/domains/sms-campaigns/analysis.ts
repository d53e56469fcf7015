import { rm } from "node:fs/promises";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { analysisErrorMessage, analysisInWorker } from "../campaigns/analysis-thread.js";
import type { Campaign, SmsAnalysisInput } from "./read-rows.js";
import { smsNotifier } from "./events.js";
import { queueSmsScheduledStart } from "./schedule.js";

export const SMS_ANALYSIS_JOB = "sms-campaigns.analyse";
export const smsAnalysisPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int() });
type Payload = z.infer<typeof smsAnalysisPayload>;

/**
 * The durable analysis of an SMS campaign's CSV (spec 3 §5): ANALYZING → READY (or SCHEDULED when a
 * schedule date is set: its timer job is queued in the same transaction) with one recipient row per
 * data line, or ERROR with the message. Streamed like the WhatsApp analysis (domains/campaigns), with
 * the same encoding rules. A row is invalid, with its reason, when its number cannot be a phone, is
 * on the company's opt-out list, is not among the company's contacts (use_whitelist), has failed
 * permanently in an earlier campaign (use_blacklist_nexus), or repeats an earlier row's number.
 * A retried job starts again from the file (rows deleted first).
 */
export async function analyseSmsCampaign(ctx: AppContext, p: Payload): Promise<void> {
  const c = await ctx.sql.maybe<Campaign>(
    `SELECT status, file_path, template_content, matrix_variables, use_whitelist, use_blacklist_nexus, scheduled_at
       FROM sms_campaigns WHERE company_id = $1 AND id = $2`,
    [p.companyId, p.campaignId],
  );
  if (!c) return;
  if (c.status !== "ANALYZING") {
    if (c.file_path) await removeFile(ctx, c.file_path, p);
    return;
  }
  await ctx.sql.exec("DELETE FROM sms_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [p.companyId, p.campaignId]);
  let outcome: { encoding: string };
  try {
    outcome = await analysisInWorker<{ encoding: string }>(ctx, {
      callerUrl: import.meta.url,
      tsEntry: "./analysis-worker.ts",
      bundle: "sms-analysis-worker",
      name: "SMS campaign analysis",
      input: { payload: p, campaign: c } satisfies SmsAnalysisInput,
      log: p,
    });
  } catch (err) {
    const message = analysisErrorMessage(err);
    if (message === null) throw err; // database or disk: pg-boss retries
    await ctx.sql.tx(async (tx) => {
      await tx.exec("DELETE FROM sms_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [p.companyId, p.campaignId]);
      await tx.exec(
        `UPDATE sms_campaigns SET status = 'ERROR', error_message = $3, file_path = '', updated_at = now() WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
        [p.companyId, p.campaignId, message],
      );
    });
    await removeFile(ctx, c.file_path, p);
    await smsNotifier(ctx).now(p.campaignId);
    return;
  }
  await ctx.sql.tx(async (tx) => {
    const scheduled = c.scheduled_at !== null;
    const n = await tx.exec(
      `UPDATE sms_campaigns SET status = $3, encoding = $4, error_message = '', file_path = '', updated_at = now()
        WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
      [p.companyId, p.campaignId, scheduled ? "SCHEDULED" : "READY", outcome.encoding],
    );
    if (n && scheduled) await queueSmsScheduledStart(ctx, tx, p.companyId, p.campaignId, c.scheduled_at!);
  });
  await removeFile(ctx, c.file_path, p);
  await smsNotifier(ctx).now(p.campaignId);
}

async function removeFile(ctx: AppContext, file: string, p: Payload): Promise<void> {
  if (!file) return;
  await rm(file, { force: true }).catch((err: unknown) => ctx.log.error({ err, ...p, file }, "could not delete an analysed SMS campaign file"));
}
