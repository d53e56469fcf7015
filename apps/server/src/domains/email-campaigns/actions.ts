import { EMAIL_CAMPAIGN_MESSAGES as M, EMAIL_CANCELLABLE, EMAIL_PAUSABLE, EMAIL_RESUMABLE, EMAIL_ROW_REASONS, type ErrorCode } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import type { Sql } from "../../db/sql.js";
import { emitEmailCampaign } from "./events.js";
import { emailCampaignNotFound, getEmailCampaign } from "./service.js";

/** What the actions tell this process's dispatcher: stop sending a campaign now, or look for work. */
export interface DispatchHooks {
  halt(campaignId: number): void;
  kick(): void;
}

interface Move {
  from: readonly string[];
  to: string;
  code: ErrorCode;
  refusal: (status: string) => string;
  /** Extra SET clauses of the move. */
  set?: string;
  /** Runs in the same transaction, after the move. */
  then?: (tx: Sql, companyId: number, id: number) => Promise<void>;
}

/**
 * One status move under the campaign's row lock (the dispatcher's claim takes the same lock, so a
 * claim sees either the old status or the new one, never a half). Already in `to` answers as is.
 */
async function move(ctx: AppContext, companyId: number, id: number, m: Move): Promise<boolean> {
  return ctx.sql.tx(async (tx) => {
    const row = await tx.maybe<{ status: string }>("SELECT status FROM email_campaigns WHERE company_id = $1 AND id = $2 FOR UPDATE", [companyId, id]);
    if (!row) throw emailCampaignNotFound();
    if (row.status === m.to) return false;
    if (!m.from.includes(row.status)) throw new AppError(m.code, m.refusal(row.status));
    await tx.exec(`UPDATE email_campaigns SET status = $3, updated_at = now()${m.set ?? ""} WHERE company_id = $1 AND id = $2`, [companyId, id, m.to]);
    await m.then?.(tx, companyId, id);
    return true;
  });
}

/**
 * Rows of a cancelled campaign not yet sent → `skipped` (never sent), counted with the invalid ones.
 * The dispatcher's release of rows it claimed but did not send uses it too.
 */
export async function skipUnsent(tx: Sql, companyId: number, id: number, rowIds?: string[]): Promise<number> {
  const n = await tx.exec(
    `UPDATE email_campaign_recipients SET state = 'skipped', invalid_reason = $3, claimed_at = NULL
      WHERE company_id = $1 AND campaign_id = $2 AND ${rowIds ? "id = ANY($4::bigint[]) AND state = 'sending'" : "state = 'pending'"}`,
    rowIds ? [companyId, id, EMAIL_ROW_REASONS.cancelled, rowIds] : [companyId, id, EMAIL_ROW_REASONS.cancelled],
  );
  if (n) await tx.exec("UPDATE email_campaigns SET count_invalid = count_invalid + $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, id, n]);
  return n;
}

/**
 * PATCH /email/campaigns/{id}/pause/: TRIGGERING or RUNNING → PAUSED. The dispatcher stops between two
 * recipients: at once in this process, within a tenth of a second in the one holding the dispatch lease;
 * rows it had claimed and not sent go back to `pending`, so a resume continues with them.
 */
export async function pauseEmailCampaign(ctx: AppContext, companyId: number, id: number, hooks: DispatchHooks) {
  if (await move(ctx, companyId, id, { from: EMAIL_PAUSABLE, to: "PAUSED", code: "ERR_EMAIL_CAMPAIGN_NOT_PAUSABLE", refusal: M.notPausable })) {
    hooks.halt(id);
    await emitEmailCampaign(ctx, companyId, id, "update");
  }
  return getEmailCampaign(ctx, companyId, id);
}

/** PATCH /email/campaigns/{id}/resume/: PAUSED → RUNNING; the dispatcher claims the rows still pending. */
export async function resumeEmailCampaign(ctx: AppContext, companyId: number, id: number, hooks: DispatchHooks) {
  if (await move(ctx, companyId, id, { from: EMAIL_RESUMABLE, to: "RUNNING", code: "ERR_EMAIL_CAMPAIGN_NOT_RESUMABLE", refusal: M.notResumable })) {
    hooks.kick();
    await emitEmailCampaign(ctx, companyId, id, "update");
  }
  return getEmailCampaign(ctx, companyId, id);
}

/**
 * POST /email/campaigns/{id}/cancel/: any status not ended → CANCELLED; rows not yet sent become
 * `skipped` in the same transaction (never sent); a message already handed to the SMTP server keeps its
 * outcome. Chosen over DELETE so the list keeps the campaign and its counters.
 */
export async function cancelEmailCampaign(ctx: AppContext, companyId: number, id: number, hooks: DispatchHooks) {
  const moved = await move(ctx, companyId, id, {
    from: EMAIL_CANCELLABLE,
    to: "CANCELLED",
    code: "ERR_EMAIL_CAMPAIGN_NOT_CANCELLABLE",
    refusal: M.notCancellable,
    set: ", finished_at = now()",
    then: async (tx) => {
      await skipUnsent(tx, companyId, id);
    },
  });
  if (moved) {
    hooks.halt(id);
    await emitEmailCampaign(ctx, companyId, id, "update");
  }
  return getEmailCampaign(ctx, companyId, id);
}
