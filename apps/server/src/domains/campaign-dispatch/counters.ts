import type { Sql } from "../../db/sql.js";

/** A row's state before and after one change (for the campaign's counters). */
export interface Transition {
  campaignId: number;
  before: string;
  after: string;
  /** replied_at was set by this change. */
  replied?: boolean;
}

const COUNTED: Record<string, (state: string) => boolean> = {
  processed: (s) => s !== "pending" && s !== "sending" && s !== "invalid",
  sent: (s) => s === "sent" || s === "delivered" || s === "read",
  delivered: (s) => s === "delivered" || s === "read",
  read: (s) => s === "read",
  failed: (s) => s === "failed",
  expired: (s) => s === "expired",
};
const KEYS = Object.keys(COUNTED);

/**
 * Applies the counter changes of a batch of row transitions in ONE statement: each counter moves by
 * (counted after) − (counted before), so the counters follow the rows exactly whatever the order of
 * the dispatcher's and the webhooks' changes (each reads the row's state under its row lock).
 * Returns the campaigns whose counters moved.
 */
export async function applyTransitions(sql: Sql, transitions: Transition[]): Promise<number[]> {
  const per = new Map<number, Record<string, number>>();
  for (const t of transitions) {
    const d = per.get(t.campaignId) ?? Object.fromEntries([...KEYS, "replied"].map((k) => [k, 0]));
    for (const k of KEYS) d[k]! += Number(COUNTED[k]!(t.after)) - Number(COUNTED[k]!(t.before));
    if (t.replied) d.replied! += 1;
    per.set(t.campaignId, d);
  }
  const changed = [...per.entries()].filter(([, d]) => Object.values(d).some((v) => v !== 0));
  if (!changed.length) return [];
  const col = (k: string) => changed.map(([, d]) => d[k]!);
  await sql.exec(
    `UPDATE campaigns c SET count_processed = c.count_processed + x.processed, count_sent = c.count_sent + x.sent,
            count_delivered = c.count_delivered + x.delivered, count_read = c.count_read + x.read,
            count_failed = c.count_failed + x.failed, count_expired = c.count_expired + x.expired,
            count_replied = c.count_replied + x.replied, updated_at = now()
       FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[])
            AS x(id, processed, sent, delivered, read, failed, expired, replied)
      WHERE c.id = x.id`,
    [changed.map(([id]) => id), col("processed"), col("sent"), col("delivered"), col("read"), col("failed"), col("expired"), col("replied")],
  );
  return changed.map(([id]) => id);
}

/**
 * Sets every counter from the rows (when a campaign finishes, and on demand). The campaign row is
 * locked first and the rows counted in a later statement: a concurrent batch has then either
 * committed (its rows are counted) or not yet taken the campaign row (its delta applies on top), so
 * no change is lost or counted twice.
 */
export async function recountCampaign(db: Sql, campaignId: number): Promise<void> {
  await db.tx(async (sql) => {
    await sql.exec("SELECT 1 FROM campaigns WHERE id = $1 FOR UPDATE", [campaignId]);
    await recountLocked(sql, campaignId);
  });
}

async function recountLocked(sql: Sql, campaignId: number): Promise<void> {
  await sql.exec(
    `UPDATE campaigns c SET
        count_processed = x.processed, count_sent = x.sent, count_delivered = x.delivered, count_read = x.read,
        count_failed = x.failed, count_expired = x.expired, count_replied = x.replied, updated_at = now()
       FROM (SELECT count(*) FILTER (WHERE state NOT IN ('pending', 'sending', 'invalid'))::int AS processed,
                    count(*) FILTER (WHERE state IN ('sent', 'delivered', 'read'))::int AS sent,
                    count(*) FILTER (WHERE state IN ('delivered', 'read'))::int AS delivered,
                    count(*) FILTER (WHERE state = 'read')::int AS read,
                    count(*) FILTER (WHERE state = 'failed')::int AS failed,
                    count(*) FILTER (WHERE state = 'expired')::int AS expired,
                    count(*) FILTER (WHERE replied_at IS NOT NULL)::int AS replied
               FROM campaign_recipients WHERE campaign_id = $1) x
      WHERE c.id = $1`,
    [campaignId],
  );
}
