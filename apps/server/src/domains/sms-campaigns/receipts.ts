import type { AppContext } from "../../core/context.js";
import { lockRecipientRows, type RecipientRowState } from "../../core/recipient-rows.js";
import { WorkLine } from "../../core/work-line.js";
import type { Sql } from "../../db/sql.js";
import type { SmsReceipt } from "../sms-provider/driver.js";
import { smsNotifier } from "./events.js";

/** error_message prefix of a row whose send was interrupted and never confirmed (revived by a later receipt). */
export const UNCONFIRMED = "outcome not confirmed";

const RANK: Record<string, number> = { sending: 0, sent: 1, delivered: 2 };

/**
 * Applies delivery receipts in `sql`'s transaction (rows locked in id order). A row is found by its
 * provider id, or by the row id our StatusCallback carried when the send's answer was never recorded
 * (a crash between the provider's answer and our record): that is how a row left `sending` learns its
 * outcome. States only rise (sending → sent → delivered); undelivered/failed end a row not yet
 * delivered; a row failed only for want of confirmation is revived by a later positive receipt.
 * Returns the campaigns whose rows changed.
 */
export async function applySmsReceipts(sql: Sql, companyId: number, receipts: SmsReceipt[]): Promise<number[]> {
  const wanted = receipts.filter((r) => r.providerId && ["sent", "delivered", "undelivered", "failed"].includes(r.status));
  if (!wanted.length) return [];
  const rows = await lockRecipientRows(
    sql,
    "sms_campaign_recipients",
    companyId,
    wanted.map((r) => r.providerId),
    wanted.map((r) => r.rowId),
  );
  const byProvider = new Map(rows.filter((r) => r.provider_id).map((r) => [r.provider_id!, r]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const next = new Map<string, RecipientRowState & { code: number | null; failed: boolean }>();
  for (const r of wanted) {
    let row = byProvider.get(r.providerId);
    if (!row && r.rowId) {
      const candidate = byId.get(r.rowId);
      if (candidate && (candidate.provider_id === null || candidate.provider_id === r.providerId)) row = candidate;
    }
    if (!row) continue;
    const cur = next.get(row.id) ?? { ...row, code: null, failed: false };
    cur.provider_id ??= r.providerId;
    const unconfirmed = cur.state === "failed" && cur.error_message.startsWith(UNCONFIRMED);
    if (r.status === "sent" || r.status === "delivered") {
      if (unconfirmed || (RANK[cur.state] !== undefined && RANK[r.status]! > RANK[cur.state]!)) {
        cur.state = r.status;
        cur.failed = false;
      }
    } else if (cur.state === "sending" || cur.state === "sent" || unconfirmed) {
      cur.state = "failed";
      cur.failed = true;
      cur.code = r.errorCode ?? null;
    }
    next.set(row.id, cur);
  }
  const changes = [...next.values()];
  if (!changes.length) return [];
  await sql.exec(
    `UPDATE sms_campaign_recipients r SET state = x.state, provider_id = COALESCE(r.provider_id, x.provider_id),
            sent_at = CASE WHEN x.state IN ('sent', 'delivered') OR x.failed THEN COALESCE(r.sent_at, now()) ELSE r.sent_at END,
            delivered_at = CASE WHEN x.state = 'delivered' THEN COALESCE(r.delivered_at, now()) ELSE r.delivered_at END,
            failed_at = CASE WHEN x.failed THEN now() WHEN x.state IN ('sent', 'delivered') THEN NULL ELSE r.failed_at END,
            error_code = CASE WHEN x.failed THEN x.code ELSE r.error_code END,
            error_message = CASE WHEN x.failed THEN 'undelivered' || COALESCE(' (' || x.code || ')', '')
                                 WHEN x.state IN ('sent', 'delivered') THEN '' ELSE r.error_message END
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::boolean[]) AS x(id, state, provider_id, code, failed)
      WHERE r.id = x.id`,
    [changes.map((c) => c.id), changes.map((c) => c.state), changes.map((c) => c.provider_id), changes.map((c) => c.code), changes.map((c) => c.failed)],
  );
  return [...new Set(changes.map((c) => c.campaign_id))];
}

/** The company each receipt's message belongs to (by provider id, else our row id): Twilio's callbacks name no company. */
async function companiesOfReceipts(sql: Sql, receipts: SmsReceipt[]): Promise<(number | null)[]> {
  const rows = await sql.many<{ i: string; company_id: number | null }>(
    `SELECT x.i::text, COALESCE((SELECT r.company_id FROM sms_campaign_recipients r WHERE r.provider_id = x.provider_id),
                                (SELECT r.company_id FROM sms_campaign_recipients r WHERE r.id = x.row_id)) AS company_id
       FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS x(provider_id, row_id, i)`,
    [receipts.map((r) => r.providerId), receipts.map((r) => (r.rowId && /^\d{1,18}$/.test(r.rowId) ? r.rowId : null))],
  );
  const out: (number | null)[] = receipts.map(() => null);
  for (const r of rows) out[Number(r.i) - 1] = r.company_id;
  return out;
}

interface PendingReceipt {
  receipt: SmsReceipt;
  resolve: (known: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * The provider's status callbacks, applied in groups: the callbacks of a tenth of a second (and those
 * that arrive while a group is being applied) make one group, which finds their companies in one statement and applies each
 * company's receipts in one transaction; each callback is answered once its receipt is committed, so
 * an answered callback is never lost. At hundreds of messages a second this is a few transactions a
 * second instead of one per message (docs/performance.md "SMS campaigns: the receipts in groups").
 */
export class SmsReceiptLine {
  private readonly line: WorkLine<PendingReceipt>;

  constructor(private readonly ctx: AppContext) {
    this.line = new WorkLine((group) => this.apply(group), {
      // one group at a time, gathered for a tenth of a second: at 500 receipts a second that is ~50 per
      // transaction (the provider waits seconds for an answer; the counters move once a second anyway)
      parallel: 1,
      maxGroup: 500,
      gatherMs: 100,
      // apply() settles every callback itself; anything escaping it must still answer them
      onFailure: (err, group) => group.forEach((p) => p.reject(err)),
    });
  }

  /** Resolves once applied: false when the receipt names no message of ours. */
  receive(receipt: SmsReceipt): Promise<boolean> {
    return new Promise((resolve, reject) => void this.line.push({ receipt, resolve, reject }));
  }

  private async apply(group: PendingReceipt[]): Promise<void> {
    const companies = await companiesOfReceipts(this.ctx.sql, group.map((p) => p.receipt));
    const byCompany = new Map<number, PendingReceipt[]>();
    group.forEach((p, i) => {
      const companyId = companies[i];
      if (companyId === null || companyId === undefined) return p.resolve(false);
      const list = byCompany.get(companyId);
      if (list) list.push(p);
      else byCompany.set(companyId, [p]);
    });
    for (const [companyId, pending] of byCompany) {
      try {
        const changed = await this.ctx.sql.tx((sql) => applySmsReceipts(sql, companyId, pending.map((p) => p.receipt)));
        pending.forEach((p) => p.resolve(true));
        smsNotifier(this.ctx).changed(changed);
      } catch (err) {
        // this company's callbacks are answered with an error (the provider tries them again); the others go on
        this.ctx.log.error({ err, companyId, receipts: pending.length }, "sms receipts could not be applied");
        pending.forEach((p) => p.reject(err));
      }
    }
  }
}

/**
 * FINISHED once no row is pending or sending (only from RUNNING: a paused campaign stays paused);
 * the counters are then set from the rows. Receipts may still raise sent rows to delivered afterwards.
 */
export async function finishIfDone(ctx: AppContext, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  // the counters are the rows' (kept by their triggers in each writer's transaction)
  const finished = (
    await ctx.sql.many<{ id: number }>(
      `UPDATE sms_campaigns c SET status = 'FINISHED', finished_at = now(), updated_at = now()
        WHERE c.id = ANY($1::int[]) AND c.status = 'RUNNING'
          AND NOT EXISTS (SELECT 1 FROM sms_campaign_recipients r WHERE r.campaign_id = c.id AND r.state IN ('pending', 'sending'))
        RETURNING c.id`,
      [ids],
    )
  ).map((d) => d.id);
  for (const id of finished) await smsNotifier(ctx).now(id);
  return finished;
}

/**
 * Rows left `sending` longer than the window with nothing confirming them (their process died between
 * the claim and the provider's answer, and no receipt named them) end `failed` "outcome not
 * confirmed": never sent again. A later receipt still revives them.
 */
export async function reconcileUnconfirmed(ctx: AppContext, reconcileMs: number): Promise<number> {
  const ended = await ctx.sql.many<{ campaign_id: number }>(
    `UPDATE sms_campaign_recipients SET state = 'failed', failed_at = now(),
            error_message = '${UNCONFIRMED}: the send was interrupted and no receipt confirmed it'
      WHERE id IN (SELECT id FROM sms_campaign_recipients WHERE state = 'sending' AND claimed_at < now() - $1 * interval '1 millisecond'
                    ORDER BY id LIMIT 5000 FOR UPDATE SKIP LOCKED)
      RETURNING campaign_id`,
    [reconcileMs],
  );
  const campaigns = [...new Set(ended.map((r) => r.campaign_id))];
  if (campaigns.length) {
    ctx.log.warn({ rows: ended.length, campaigns }, "SMS rows left sending were not confirmed within the reconciliation window; marked failed");
    await finishIfDone(ctx, campaigns);
    smsNotifier(ctx).changed(campaigns);
  }
  return ended.length;
}
