import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";
import { smsNotifier } from "./events.js";

/** The durable timer of a scheduled campaign (a pg-boss job at the instant): SCHEDULED → RUNNING. */
export const SMS_SCHEDULED_START_JOB = "sms-campaigns.scheduled-start";
export const smsScheduledStartPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int(), at: z.string() });
type Payload = z.infer<typeof smsScheduledStartPayload>;

export async function queueSmsScheduledStart(ctx: AppContext, db: Sql, companyId: number, campaignId: number, at: Date): Promise<void> {
  const jobId = await ctx.jobs.send(SMS_SCHEDULED_START_JOB, { companyId, campaignId, at: at.toISOString() }, { startAfter: at, db });
  await db.exec("UPDATE sms_campaigns SET schedule_job_id = $3 WHERE company_id = $1 AND id = $2", [companyId, campaignId, jobId]);
}

/**
 * The timer fired: it acts only on a campaign still SCHEDULED for this very instant (a trigger or a
 * cancel meanwhile leaves it without effect). The dispatcher sees RUNNING on its next poll.
 */
export async function runSmsScheduledStart(ctx: AppContext, p: Payload, kick: () => void): Promise<void> {
  const n = await ctx.sql.exec(
    `UPDATE sms_campaigns SET status = 'RUNNING', started_at = COALESCE(started_at, now()), schedule_job_id = NULL, updated_at = now()
      WHERE company_id = $1 AND id = $2 AND status = 'SCHEDULED' AND scheduled_at = $3`,
    [p.companyId, p.campaignId, new Date(p.at)],
  );
  if (!n) {
    ctx.log.info({ ...p }, "sms scheduled start skipped: the campaign is no longer scheduled for this instant");
    return;
  }
  kick();
  await smsNotifier(ctx).now(p.campaignId);
}
