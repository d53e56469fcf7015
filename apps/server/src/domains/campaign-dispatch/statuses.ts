import type { AppContext } from "../../core/context.js";
import { lockRecipientRows, type RecipientRowState } from "../../core/recipient-rows.js";
import { applyTransitions, recountCampaign, type Transition } from "./counters.js";
import { campaignNotifier } from "./events.js";
import { isExpiryError } from "./outcome.js";
import { UNCONFIRMED } from "./unconfirmed.js";

/** One status of a campaign message: Meta's webhook or the sandbox's simulation. */
export interface CampaignStatus {
  /** Meta's message id (wamid). */
  providerId: string;
  /** biz_opaque_callback_data: the recipient row id the send carried. */
  rowId?: string;
  status: string;
  at?: Date;
  errorCode?: number | null;
  errorTitle?: string;
  errorDetail?: string;
}

const RANK: Record<string, number> = { pending: -1, sending: 0, sent: 1, delivered: 2, read: 3 };
const POSITIVE = new Set(["sent", "delivered", "read"]);

/**
 * Applies statuses to campaign rows, all in one transaction (rows locked in id order, one UPDATE, one
 * counters UPDATE). A row is found by its provider id, or by the row id Meta echoes
 * (biz_opaque_callback_data) when its send's answer was never recorded (a crash between Meta's
 * answer and the record): that is how a row left `sending` learns its outcome. A status naming a
 * row that has another provider id is not this row's. States only rise (sent → delivered → read); a
 * failed status applies before delivery; a failure whose error says the time-to-live passed is
 * `expired`. A row failed only because nothing confirmed it in time is revived by a later
 * positive status (and its late answer). Returns the provider ids that were campaign messages.
 */
export async function applyCampaignStatuses(ctx: AppContext, companyId: number, statuses: CampaignStatus[]): Promise<Set<string>> {
  const wanted = statuses.filter((s) => s.providerId && (POSITIVE.has(s.status) || s.status === "failed"));
  if (!wanted.length) return new Set();
  const { handled, campaigns } = await ctx.sql.tx(async (sql) => {
    const rows = await lockRecipientRows(
      sql,
      "campaign_recipients",
      companyId,
      wanted.map((s) => s.providerId),
      wanted.map((s) => s.rowId),
    );
    if (!rows.length) return { handled: new Set<string>(), campaigns: [] as number[] };
    const byProvider = new Map(rows.filter((r) => r.provider_id).map((r) => [r.provider_id!, r]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const next = new Map<string, RecipientRowState & { before: string; revived?: boolean; at: Record<string, Date>; error?: { code: number | null; message: string } }>();
    const handled = new Set<string>();
    for (const s of wanted) {
      let row = byProvider.get(s.providerId);
      if (!row && s.rowId) {
        const candidate = byId.get(s.rowId);
        if (candidate && (candidate.provider_id === null || candidate.provider_id === s.providerId)) row = candidate;
      }
      if (!row) continue;
      handled.add(s.providerId);
      const cur = next.get(row.id) ?? { ...row, before: row.state, at: {} };
      cur.provider_id ??= s.providerId;
      const at = s.at ?? new Date();
      if (POSITIVE.has(s.status)) {
        const revivable = cur.state === "failed" && cur.before === "failed" && row.error_message.startsWith(UNCONFIRMED);
        if (revivable) cur.revived = true;
        if (revivable || (RANK[cur.state] !== undefined && RANK[s.status]! > RANK[cur.state]!)) cur.state = s.status;
        cur.at[`${s.status}_at`] = at;
        if (s.status !== "sent") cur.at.sent_at ??= at;
      } else if (cur.state === "sending" || cur.state === "sent") {
        const expired = isExpiryError({ code: s.errorCode, title: s.errorTitle, details: s.errorDetail });
        cur.state = expired ? "expired" : "failed";
        cur.at.failed_at = at;
        cur.error = { code: s.errorCode ?? null, message: [s.errorTitle, s.errorDetail].filter(Boolean).join(" — ").slice(0, 1000) };
      }
      next.set(row.id, cur);
    }
    const changes = [...next.values()];
    if (!changes.length) return { handled, campaigns: [] };
    const date = (k: string) => changes.map((c) => c.at[k] ?? null);
    await sql.exec(
      `UPDATE campaign_recipients r SET state = x.state, provider_id = COALESCE(r.provider_id, x.provider_id),
              sent_at = COALESCE(r.sent_at, x.sent_at), delivered_at = COALESCE(r.delivered_at, x.delivered_at),
              read_at = COALESCE(r.read_at, x.read_at),
              failed_at = CASE WHEN x.revived THEN NULL ELSE COALESCE(x.failed_at, r.failed_at) END,
              error_code = CASE WHEN x.state IN ('failed', 'expired') AND x.error_message IS NOT NULL THEN x.error_code ELSE r.error_code END,
              error_message = CASE WHEN x.state IN ('failed', 'expired') AND x.error_message IS NOT NULL THEN x.error_message
                                   WHEN x.state IN ('sent', 'delivered', 'read') THEN '' ELSE r.error_message END
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::int[], $9::text[], $10::boolean[])
              AS x(id, state, provider_id, sent_at, delivered_at, read_at, failed_at, error_code, error_message, revived)
        WHERE r.id = x.id`,
      [
        changes.map((c) => c.id),
        changes.map((c) => c.state),
        changes.map((c) => c.provider_id),
        date("sent_at"),
        date("delivered_at"),
        date("read_at"),
        date("failed_at"),
        changes.map((c) => c.error?.code ?? null),
        changes.map((c) => c.error?.message ?? null),
        changes.map((c) => c.revived === true),
      ],
    );
    const transitions: Transition[] = changes.map((c) => ({ campaignId: c.campaign_id, before: c.before, after: c.state }));
    const campaigns = await applyTransitions(sql, transitions);
    return { handled, campaigns };
  });
  if (campaigns.length) {
    await finishIfDone(ctx, campaigns);
    campaignNotifier(ctx).changed(campaigns);
  }
  return handled;
}

/**
 * FINISHED when no row is pending or sending (only from RUNNING or WAITING: a paused campaign stays
 * paused); the counters are then set exactly from the rows.
 */
export async function finishIfDone(ctx: AppContext, campaignIds: number[]): Promise<number[]> {
  const done = await ctx.sql.many<{ id: number }>(
    `UPDATE campaigns c SET status = 'FINISHED', finished_at = now(), updated_at = now()
      WHERE c.id = ANY($1::int[]) AND c.status IN ('RUNNING', 'WAITING')
        AND NOT EXISTS (SELECT 1 FROM campaign_recipients r WHERE r.campaign_id = c.id AND r.state IN ('pending', 'sending'))
      RETURNING c.id`,
    [campaignIds],
  );
  for (const { id } of done) await recountCampaign(ctx.sql, id);
  if (done.length) campaignNotifier(ctx).changed(done.map((d) => d.id));
  return done.map((d) => d.id);
}
