import { z } from "zod";
import { CAMPAIGN_MESSAGES, zonedLocalToDate, LOCAL_DATE_TIME } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import type { Sql } from "../../db/sql.js";
import { companyTimeZone } from "../companies/repository.js";
import { emitCampaign } from "./events.js";
import * as repo from "./repository.js";

/** Our timer: fires at the scheduled instant and hands the campaign to the dispatcher. */
export const SCHEDULED_START_JOB = "campaigns.scheduled-start";
/** The dispatch module's job (domains/campaign-dispatch) that starts a campaign. */
export const DISPATCH_START_JOB = "campaign-dispatch.start";

export const scheduledStartPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int(), at: z.string() });
type ScheduledStartPayload = z.infer<typeof scheduledStartPayload>;

/** Statuses a campaign may be scheduled in: it can still be started (still analysing, ready, paused). */
const SCHEDULABLE = new Set(["ANALYZING", "READY", "PAUSED"]);
/** A campaign still analysing when its time comes is looked at again this much later. */
const ANALYSIS_WAIT_MS = 30_000;

/** A wall-clock time (company's zone) or an instant, which must lie in the future. */
export async function scheduleInstant(sql: Sql, companyId: number, value: string): Promise<Date> {
  const at = LOCAL_DATE_TIME.test(value) ? zonedLocalToDate(value, await companyTimeZone(sql, companyId)) : new Date(value);
  if (Number.isNaN(at.getTime())) throw new AppError("ERR_VALIDATION", "Data inválida", { fields: { scheduledAt: "Data inválida" } });
  if (at.getTime() <= Date.now()) {
    throw new AppError("ERR_VALIDATION", CAMPAIGN_MESSAGES.scheduleInPast, { fields: { scheduledAt: CAMPAIGN_MESSAGES.scheduleInPast } });
  }
  return at;
}

/** Queues the timer job inside `db`'s transaction and records it on the campaign. */
export async function queueScheduledStart(ctx: AppContext, db: Sql, companyId: number, campaignId: number, at: Date): Promise<void> {
  const payload: ScheduledStartPayload = { companyId, campaignId, at: at.toISOString() };
  const jobId = await ctx.jobs.send(SCHEDULED_START_JOB, payload, { startAfter: at, db });
  await repo.setSchedule(db, companyId, campaignId, at, jobId);
}

function cancelTimer(ctx: AppContext, jobId: string | null, campaignId: number): void {
  if (!jobId) return;
  // the timer checks the stored instant when it fires, so a timer that could not be cancelled does nothing
  ctx.jobs.cancel(SCHEDULED_START_JOB, jobId).catch((err: unknown) => ctx.log.warn({ err, campaignId, jobId }, "could not cancel a campaign start timer"));
}

export async function setCampaignSchedule(ctx: AppContext, companyId: number, id: number, value: string) {
  const at = await scheduleInstant(ctx.sql, companyId, value);
  const previous = await ctx.sql.tx(async (tx) => {
    const row = await tx.maybe<{ status: string; schedule_job_id: string | null }>(
      "SELECT status, schedule_job_id FROM campaigns WHERE company_id = $1 AND id = $2 FOR UPDATE",
      [companyId, id],
    );
    if (!row) throw new AppError("ERR_CAMPAIGN_NOT_FOUND", CAMPAIGN_MESSAGES.notFound);
    if (!SCHEDULABLE.has(row.status)) throw new AppError("ERR_CAMPAIGN_NOT_SCHEDULABLE", CAMPAIGN_MESSAGES.notSchedulable);
    await queueScheduledStart(ctx, tx, companyId, id, at);
    return row.schedule_job_id;
  });
  cancelTimer(ctx, previous, id);
  await emitCampaign(ctx, companyId, id, "update");
}

export async function removeCampaignSchedule(ctx: AppContext, companyId: number, id: number) {
  const previous = await ctx.sql.tx(async (tx) => {
    const row = await tx.maybe<{ schedule_job_id: string | null }>("SELECT schedule_job_id FROM campaigns WHERE company_id = $1 AND id = $2 FOR UPDATE", [
      companyId,
      id,
    ]);
    if (!row) throw new AppError("ERR_CAMPAIGN_NOT_FOUND", CAMPAIGN_MESSAGES.notFound);
    await repo.setSchedule(tx, companyId, id, null, null);
    return row.schedule_job_id;
  });
  cancelTimer(ctx, previous, id);
  await emitCampaign(ctx, companyId, id, "update");
}

/**
 * The timer fired. It acts only if the campaign is still scheduled for this very instant (an edit or a
 * removal leaves an old timer without effect): a READY or PAUSED campaign has its schedule cleared and
 * the dispatcher's start job queued in the same transaction (both or neither); one still ANALYZING is
 * looked at again shortly; any other status only loses its schedule.
 */
export async function runScheduledStart(ctx: AppContext, p: ScheduledStartPayload): Promise<void> {
  const outcome = await ctx.sql.tx(async (tx) => {
    const row = await tx.maybe<{ status: string; scheduled_at: Date | null }>(
      "SELECT status, scheduled_at FROM campaigns WHERE company_id = $1 AND id = $2 FOR UPDATE",
      [p.companyId, p.campaignId],
    );
    if (!row?.scheduled_at || row.scheduled_at.getTime() !== Date.parse(p.at)) return "stale";
    if (row.status === "ANALYZING") return "wait";
    await repo.setSchedule(tx, p.companyId, p.campaignId, null, null);
    if (row.status !== "READY" && row.status !== "PAUSED") {
      ctx.log.warn({ ...p, status: row.status }, "scheduled campaign start skipped: the campaign can no longer be started");
      return "dropped";
    }
    await ctx.jobs.send(DISPATCH_START_JOB, { companyId: p.companyId, campaignId: p.campaignId }, { db: tx });
    return "started";
  });
  if (outcome === "wait") {
    const jobId = await ctx.jobs.send(SCHEDULED_START_JOB, p, { startAfter: Date.now() + ANALYSIS_WAIT_MS });
    await ctx.sql.exec("UPDATE campaigns SET schedule_job_id = $3 WHERE company_id = $1 AND id = $2", [p.companyId, p.campaignId, jobId]);
  }
  if (outcome === "started" || outcome === "dropped") await emitCampaign(ctx, p.companyId, p.campaignId, "update");
}
