import { SMS_CAMPAIGN_MESSAGES as M, SMS_CANCELLABLE, SMS_ROW_REASONS, SMS_TRIGGERABLE } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { smsNotifier } from "./events.js";
import { SMS_SCHEDULED_START_JOB } from "./schedule.js";

async function statusOf(ctx: AppContext, companyId: number, id: number): Promise<{ status: string; schedule_job_id: string | null }> {
  const row = await ctx.sql.maybe<{ status: string; schedule_job_id: string | null }>("SELECT status, schedule_job_id FROM sms_campaigns WHERE company_id = $1 AND id = $2", [
    companyId,
    id,
  ]);
  if (!row) throw new AppError("ERR_SMS_CAMPAIGN_NOT_FOUND", M.notFound);
  return row;
}

/** Moves `from` → `to` in one statement (a concurrent change makes it a 409 with the message). */
async function move(ctx: AppContext, companyId: number, id: number, from: readonly string[], to: string, refusal: (status: string) => string, extra = "") {
  const current = await statusOf(ctx, companyId, id);
  if (current.status === to) return current;
  if (!from.includes(current.status)) throw new AppError("ERR_SMS_CAMPAIGN_STATUS", refusal(current.status));
  const n = await ctx.sql.exec(`UPDATE sms_campaigns SET status = $3, updated_at = now()${extra} WHERE company_id = $1 AND id = $2 AND status = ANY($4::text[])`, [
    companyId,
    id,
    to,
    [...from],
  ]);
  if (!n) throw new AppError("ERR_SMS_CAMPAIGN_STATUS", refusal((await statusOf(ctx, companyId, id)).status));
  return current;
}

function dropTimer(ctx: AppContext, jobId: string | null, id: number): void {
  if (!jobId) return;
  // the timer re-checks the status when it fires, so one that could not be cancelled does nothing
  ctx.jobs.cancel(SMS_SCHEDULED_START_JOB, jobId).catch((err: unknown) => ctx.log.warn({ err, smsCampaignId: id, jobId }, "could not cancel an SMS campaign timer"));
}

function assertSending(ctx: AppContext): void {
  if (ctx.config.sms.provider === "off") throw new AppError("ERR_FEATURE_DISABLED", "O envio de SMS não está configurado (SMS_PROVIDER).");
}

/**
 * POST .../trigger/: READY (ACTIVE) or SCHEDULED → RUNNING now (a schedule is dropped). The Messages
 * API (`byApi`) triggers only the campaigns it created; the web list triggers any.
 */
export async function triggerSmsCampaign(ctx: AppContext, companyId: number, id: number, kick: () => void, byApi = false): Promise<void> {
  assertSending(ctx);
  if (byApi) {
    const row = await ctx.sql.maybe<{ source: string }>("SELECT source FROM sms_campaigns WHERE company_id = $1 AND id = $2", [companyId, id]);
    if (row?.source !== "API") throw new AppError("ERR_SMS_CAMPAIGN_NOT_FOUND", M.notFound);
  }
  const before = await move(ctx, companyId, id, SMS_TRIGGERABLE, "RUNNING", M.notTriggerable, ", started_at = COALESCE(started_at, now()), account_violation = ''");
  if (before.status === "SCHEDULED") dropTimer(ctx, before.schedule_job_id, id);
  kick();
  await smsNotifier(ctx).now(id);
}

/** PATCH .../pause/: RUNNING → PAUSED; the sender re-reads the status before every quarter-second batch. */
export async function pauseSmsCampaign(ctx: AppContext, companyId: number, id: number): Promise<void> {
  await move(ctx, companyId, id, ["RUNNING"], "PAUSED", M.notPausable);
  await smsNotifier(ctx).now(id);
}

/** PATCH .../resume/: PAUSED → RUNNING (clears an account violation: the supervisor says it was dealt with). */
export async function resumeSmsCampaign(ctx: AppContext, companyId: number, id: number, kick: () => void): Promise<void> {
  assertSending(ctx);
  await move(ctx, companyId, id, ["PAUSED"], "RUNNING", M.notResumable, ", account_violation = ''");
  kick();
  await smsNotifier(ctx).now(id);
}

/**
 * POST .../cancel/: any status not ended → CANCELLED. Rows not yet sent become `skipped` (never sent);
 * rows in flight keep their outcome. The list counts the skipped rows as invalid.
 */
export async function cancelSmsCampaign(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const before = await move(ctx, companyId, id, SMS_CANCELLABLE, "CANCELLED", M.notCancellable, ", finished_at = now()");
  dropTimer(ctx, before.schedule_job_id, id);
  await ctx.sql.exec("UPDATE sms_campaign_recipients SET state = 'skipped', invalid_reason = $3 WHERE company_id = $1 AND campaign_id = $2 AND state = 'pending'", [
    companyId,
    id,
    SMS_ROW_REASONS.cancelled,
  ]);
  await smsNotifier(ctx).now(id);
}
