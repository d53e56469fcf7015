import { SMS_ROW_REASONS } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface RunningSmsCampaign {
  id: number;
  company_id: number;
  time_zone: string;
  start_minute: number | null;
  end_minute: number | null;
  template_content: string;
  matrix_variables: { template_variable: string; file_index: number }[];
  use_shortener_url: boolean;
}

/** Every RUNNING campaign, oldest first (re-read before every batch: a pause or cancel shows at once). */
export function runningSmsCampaigns(sql: Sql): Promise<RunningSmsCampaign[]> {
  return sql.many<RunningSmsCampaign>(
    `SELECT c.id, c.company_id, co.time_zone, c.start_minute, c.end_minute, c.template_content, c.matrix_variables, c.use_shortener_url
       FROM sms_campaigns c JOIN companies co ON co.id = c.company_id WHERE c.status = 'RUNNING' ORDER BY c.id`,
  );
}

export interface ClaimedSmsRow {
  id: string;
  phone: string;
  variables: string[];
  attempts: number;
  state: string;
}

/**
 * Claims up to `limit` due pending rows in one committed statement, before any request: `pending` →
 * `sending` with claimed_at. A row whose number joined the opt-out list after the analysis becomes
 * `skipped` instead (never written to). Rows are locked with SKIP LOCKED, so two claimers never take
 * the same row.
 */
export function claimSmsRows(sql: Sql, campaignId: number, limit: number): Promise<ClaimedSmsRow[]> {
  return sql.many<ClaimedSmsRow>(
    `WITH picked AS (
       SELECT r.id, EXISTS (SELECT 1 FROM opt_outs o WHERE o.company_id = r.company_id AND o.channel = 'sms' AND o.address = r.phone) AS opted_out
         FROM sms_campaign_recipients r
        WHERE r.campaign_id = $1 AND r.state = 'pending' AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= now())
        ORDER BY r.id LIMIT $2 FOR UPDATE OF r SKIP LOCKED)
     UPDATE sms_campaign_recipients r
        SET state = CASE WHEN picked.opted_out THEN 'skipped' ELSE 'sending' END,
            invalid_reason = CASE WHEN picked.opted_out THEN $3 ELSE r.invalid_reason END,
            claimed_at = now()
       FROM picked WHERE r.id = picked.id
     RETURNING r.id::text, r.phone, r.variables, r.attempts, r.state`,
    [campaignId, limit, SMS_ROW_REASONS.optedOut],
  );
}

export async function acquireSmsLease(sql: Sql, ownerId: string, leaseMs: number): Promise<boolean> {
  const row = await sql.maybe(
    `INSERT INTO sms_dispatch_lease (name, owner_id, expires_at) VALUES ('sms', $1, now() + $2 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET owner_id = EXCLUDED.owner_id, expires_at = EXCLUDED.expires_at
      WHERE sms_dispatch_lease.expires_at < now() OR sms_dispatch_lease.owner_id = EXCLUDED.owner_id
     RETURNING name`,
    [ownerId, leaseMs],
  );
  return row !== null;
}

export async function renewSmsLease(sql: Sql, ownerId: string, leaseMs: number): Promise<boolean> {
  return (await sql.exec("UPDATE sms_dispatch_lease SET expires_at = now() + $2 * interval '1 millisecond' WHERE name = 'sms' AND owner_id = $1", [ownerId, leaseMs])) > 0;
}

export async function releaseSmsLease(sql: Sql, ownerId: string): Promise<void> {
  await sql.exec("DELETE FROM sms_dispatch_lease WHERE name = 'sms' AND owner_id = $1", [ownerId]);
}
