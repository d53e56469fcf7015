import { CAMPAIGN_PAUSABLE, CAMPAIGN_STARTABLE, type CampaignProgress } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { companySettingOn } from "../../core/http.js";
import { campaignNotifier, presentCampaignProgress } from "./events.js";
import { portfolioOutput } from "./portfolio-limit.js";
import { CAMPAIGN_NUMBER_MATCH } from "./repository.js";

/**
 * The company's `campaignsEnabled` setting must be on for every campaign action: the routes' gate
 * checks it, and so does a start that comes from a scheduled job (the same rule, `companySettingOn`).
 */
export async function assertCampaignsEnabled(ctx: AppContext, companyId: number): Promise<void> {
  if (!(await companySettingOn(ctx, companyId, "campaignsEnabled"))) throw new AppError("ERR_FEATURE_DISABLED", "Recurso desativado nas configurações da empresa");
}

type ProgressRow = Parameters<typeof presentCampaignProgress>[0];
const PROGRESS_COLUMNS = `id, company_id, status, account_violation, error_message, count_total, count_invalid, count_processed, count_sent,
  count_delivered, count_read, count_failed, count_expired, count_replied, started_at, finished_at`;

async function loadProgress(ctx: AppContext, companyId: number, campaignId: number): Promise<CampaignProgress> {
  const row = await ctx.sql.maybe<ProgressRow>(`SELECT ${PROGRESS_COLUMNS} FROM campaigns WHERE company_id = $1 AND id = $2`, [companyId, campaignId]);
  if (!row) throw new AppError("ERR_NOT_FOUND", "Campanha não encontrada");
  return presentCampaignProgress(row);
}

/**
 * READY, PAUSED or WAITING → RUNNING (409 ERR_CAMPAIGN_NOT_STARTABLE from any other status); a
 * campaign with no active number answers ERR_CAMPAIGN_NO_NUMBERS. A WAITING campaign whose portfolio
 * still has no room goes back to WAITING on its first claim. Clears the account violation (the start
 * is the supervisor's word that it was dealt with). The dispatcher is told at once.
 */
export async function startCampaign(ctx: AppContext, companyId: number, campaignId: number, kick?: () => void): Promise<CampaignProgress> {
  await assertCampaignsEnabled(ctx, companyId);
  const current = await loadProgress(ctx, companyId, campaignId);
  if (current.status === "RUNNING") return current;
  if (!(CAMPAIGN_STARTABLE as readonly string[]).includes(current.status)) {
    throw new AppError("ERR_CAMPAIGN_NOT_STARTABLE", `A campanha não pode ser iniciada no status ${current.status}`);
  }
  const numbers = await ctx.sql.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM campaigns c JOIN official_numbers o ON ${CAMPAIGN_NUMBER_MATCH} WHERE c.company_id = $1 AND c.id = $2`,
    [companyId, campaignId],
  );
  if (!numbers.n) throw new AppError("ERR_CAMPAIGN_NO_NUMBERS", "A campanha não tem número ativo para enviar");
  const moved = await ctx.sql.exec(
    `UPDATE campaigns SET status = 'RUNNING', started_at = COALESCE(started_at, now()), account_violation = '', updated_at = now()
      WHERE company_id = $1 AND id = $2 AND status = ANY($3::text[])`,
    [companyId, campaignId, [...CAMPAIGN_STARTABLE]],
  );
  if (!moved) throw new AppError("ERR_CAMPAIGN_NOT_STARTABLE", "O status da campanha mudou; tente novamente");
  campaignNotifier(ctx).changed([campaignId]);
  kick?.();
  return loadProgress(ctx, companyId, campaignId);
}

/** RUNNING or WAITING → PAUSED (409 ERR_CAMPAIGN_NOT_PAUSABLE otherwise). The number loops re-read the status before every quarter-second batch. */
export async function pauseCampaign(ctx: AppContext, companyId: number, campaignId: number): Promise<CampaignProgress> {
  await assertCampaignsEnabled(ctx, companyId);
  const current = await loadProgress(ctx, companyId, campaignId);
  if (current.status === "PAUSED") return current;
  const moved = await ctx.sql.exec("UPDATE campaigns SET status = 'PAUSED', updated_at = now() WHERE company_id = $1 AND id = $2 AND status = ANY($3::text[])", [
    companyId,
    campaignId,
    [...CAMPAIGN_PAUSABLE],
  ]);
  if (!moved) throw new AppError("ERR_CAMPAIGN_NOT_PAUSABLE", `A campanha não pode ser pausada no status ${current.status}`);
  campaignNotifier(ctx).changed([campaignId]);
  return loadProgress(ctx, companyId, campaignId);
}

/**
 * The resume job of a WAITING campaign: RUNNING again when its portfolio has room, else another job
 * when the oldest send of the window leaves it (or in a minute).
 */
export async function resumeWaiting(ctx: AppContext, companyId: number, campaignId: number, requeue: (at: number) => Promise<void>, kick: () => void): Promise<void> {
  const c = await ctx.sql.maybe<{ status: string; business_id: number }>("SELECT status, business_id FROM campaigns WHERE company_id = $1 AND id = $2", [
    companyId,
    campaignId,
  ]);
  if (!c || c.status !== "WAITING") return;
  const output = await portfolioOutput(ctx.sql, companyId, c.business_id);
  if (output.remaining <= 0) {
    await requeue(Date.now() + 60_000);
    return;
  }
  const moved = await ctx.sql.exec("UPDATE campaigns SET status = 'RUNNING', updated_at = now() WHERE company_id = $1 AND id = $2 AND status = 'WAITING'", [
    companyId,
    campaignId,
  ]);
  if (moved) {
    campaignNotifier(ctx).changed([campaignId]);
    kick();
  }
}

/** The sandbox business's simulated failure share (admin). Another company's or a real business: 404. */
export async function setSandboxFailureRate(ctx: AppContext, companyId: number, businessId: number, failureRate: number) {
  const row = await ctx.sql.maybe<{ id: number; rate: number }>(
    "UPDATE businesses SET sandbox_failure_rate = $3, updated_at = now() WHERE company_id = $1 AND id = $2 AND sandbox RETURNING id, sandbox_failure_rate::float8 AS rate",
    [companyId, businessId, failureRate],
  );
  if (!row) throw new AppError("ERR_NOT_FOUND", "BM sandbox não encontrado");
  return { businessId: row.id, failureRate: row.rate };
}
