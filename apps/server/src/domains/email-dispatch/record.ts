import { EMAIL_ROW_REASONS } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import type { SendResult } from "../email-transport/driver.js";
import type { ClaimedRow } from "./repository.js";

export type RowOutcome = SendResult | { kind: "opted_out" };
export interface RowResult {
  row: ClaimedRow;
  outcome: RowOutcome;
  at: Date;
}

/**
 * Records a batch's answers in one transaction: accepted → delivered (the relay took it; a later bounce
 * may still turn it not delivered), 5xx → not_delivered with the code, 4xx or a dropped connection →
 * pending again after `retryBaseMs × 2^attempts` until `maxAttempts`, then not_delivered; an address that
 * unsubscribed since the analysis → invalid, never sent. Only rows still `sending` change, and the
 * campaign's counters move by what changed, in the same transaction.
 */
export async function recordResults(sql: Sql, campaignId: number, results: RowResult[], o: { maxAttempts: number; retryBaseMs: number }): Promise<void> {
  if (!results.length) return;
  const state = results.map(({ row, outcome }) => {
    if (outcome.kind === "accepted") return "delivered";
    if (outcome.kind === "rejected") return "not_delivered";
    if (outcome.kind === "opted_out") return "invalid";
    return row.attempts + 1 >= o.maxAttempts ? "not_delivered" : "pending";
  });
  await sql.tx(async (tx) => {
    const changed = await tx.many<{ state: string }>(
      `UPDATE email_campaign_recipients r SET
          state = x.state,
          attempts = r.attempts + CASE WHEN x.state = 'invalid' THEN 0 ELSE 1 END,
          sent_at = CASE WHEN x.state IN ('delivered', 'not_delivered') THEN x.at ELSE r.sent_at END,
          next_attempt_at = CASE WHEN x.state = 'pending' THEN x.at + (x.delay_ms * interval '1 millisecond') ELSE NULL END,
          claimed_at = CASE WHEN x.state = 'pending' THEN NULL ELSE r.claimed_at END,
          smtp_response = COALESCE(x.response, r.smtp_response),
          error_code = x.code,
          error_message = COALESCE(x.message, ''),
          invalid_reason = CASE WHEN x.state = 'invalid' THEN $8 ELSE r.invalid_reason END
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::float8[])
              AS x(id, state, response, code, message, at, delay_ms)
        WHERE r.id = x.id AND r.state = 'sending'
        RETURNING r.state`,
      [
        results.map((r) => r.row.id),
        state,
        results.map((r) => (r.outcome.kind === "accepted" ? r.outcome.response.slice(0, 500) : null)),
        results.map((r) => ("code" in r.outcome ? r.outcome.code : null)),
        results.map((r) => ("message" in r.outcome ? r.outcome.message : null)),
        results.map((r) => r.at),
        results.map((r) => o.retryBaseMs * 2 ** r.row.attempts),
        EMAIL_ROW_REASONS.optedOut,
      ],
    );
    const count = (s: string) => changed.filter((c) => c.state === s).length;
    const delivered = count("delivered");
    const notDelivered = count("not_delivered");
    const invalid = count("invalid");
    if (delivered + notDelivered + invalid === 0) return;
    await tx.exec(
      `UPDATE email_campaigns SET count_emails_sent = count_emails_sent + $2 + $3, count_emails_delivered = count_emails_delivered + $2,
              count_emails_not_delivered = count_emails_not_delivered + $3, count_invalid = count_invalid + $4, updated_at = now()
        WHERE id = $1`,
      [campaignId, delivered, notDelivered, invalid],
    );
  });
}

/**
 * Rows left `sending` longer than the window (their process died between the claim and the answer)
 * end `unconfirmed`: never sent again. The message may or may not have left; a customer is never
 * e-mailed twice by us, at the price of not retrying such a row. Returns the campaigns touched.
 */
export async function reconcileUnconfirmed(sql: Sql, reconcileMs: number): Promise<number[]> {
  const rows = await sql.many<{ campaign_id: number }>(
    `UPDATE email_campaign_recipients SET state = 'unconfirmed', error_message = 'Resultado não confirmado: o envio foi interrompido'
      WHERE id IN (SELECT id FROM email_campaign_recipients WHERE state = 'sending' AND claimed_at < now() - $1 * interval '1 millisecond'
                    ORDER BY id LIMIT 5000 FOR UPDATE SKIP LOCKED)
      RETURNING campaign_id`,
    [reconcileMs],
  );
  return [...new Set(rows.map((r) => r.campaign_id))];
}
