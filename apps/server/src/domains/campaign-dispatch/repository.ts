import type { SecretSealer } from "../../core/secrets/sealer.js";
import { businessSecretPlace } from "../businesses/repository.js";
import type { Sql } from "../../db/sql.js";
import type { SendingNumber } from "./sender.js";
import type { CampaignTemplate } from "./template-message.js";

/**
 * The numbers a campaign sends through: its campaign_numbers rows, or every active number of its
 * business when none were chosen. `$1` is the campaign alias's id expression context (used inline).
 */
export const CAMPAIGN_NUMBER_MATCH = `o.company_id = c.company_id AND o.business_id = c.business_id AND o.active
  AND (NOT EXISTS (SELECT 1 FROM campaign_numbers cn WHERE cn.campaign_id = c.id)
       OR EXISTS (SELECT 1 FROM campaign_numbers cn WHERE cn.campaign_id = c.id AND cn.official_number_id = o.id))`;

/** Numbers with at least one RUNNING campaign to send (uses the campaigns_active partial index). */
export function runningNumbers(sql: Sql): Promise<{ number_id: number; company_id: number }[]> {
  return sql.many(
    `SELECT DISTINCT o.id AS number_id, o.company_id FROM campaigns c JOIN official_numbers o ON ${CAMPAIGN_NUMBER_MATCH}
      WHERE c.status = 'RUNNING'`,
  );
}

export async function acquireLease(sql: Sql, numberId: number, companyId: number, ownerId: string, leaseMs: number): Promise<boolean> {
  const row = await sql.maybe(
    `INSERT INTO campaign_number_leases (official_number_id, company_id, owner_id, expires_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
     ON CONFLICT (company_id, official_number_id) DO UPDATE SET owner_id = EXCLUDED.owner_id, expires_at = EXCLUDED.expires_at
      WHERE campaign_number_leases.expires_at < now() OR campaign_number_leases.owner_id = EXCLUDED.owner_id
     RETURNING official_number_id`,
    [numberId, companyId, ownerId, leaseMs],
  );
  return row !== null;
}

export async function renewLease(sql: Sql, numberId: number, ownerId: string, leaseMs: number): Promise<boolean> {
  const n = await sql.exec(
    "UPDATE campaign_number_leases SET expires_at = now() + $3 * interval '1 millisecond' WHERE official_number_id = $1 AND owner_id = $2",
    [numberId, ownerId, leaseMs],
  );
  return n > 0;
}

export async function releaseLease(sql: Sql, numberId: number, ownerId: string): Promise<void> {
  await sql.exec("DELETE FROM campaign_number_leases WHERE official_number_id = $1 AND owner_id = $2", [numberId, ownerId]);
}

/** The number with its account's token opened (the sandbox business has none). */
export async function loadNumber(sql: Sql, secrets: SecretSealer, numberId: number): Promise<SendingNumber | null> {
  const row = await sql.maybe<SendingNumber>(
    `SELECT o.id, o.company_id AS "companyId", o.business_id AS "businessId", o.whatsapp_id AS "whatsappId",
            o.phone_number_id AS "phoneNumberId", o.throughput_per_second AS "throughputPerSecond",
            b.access_token AS "accessToken", b.sandbox, b.sandbox_failure_rate::float8 AS "sandboxFailureRate"
       FROM official_numbers o JOIN businesses b ON b.company_id = o.company_id AND b.id = o.business_id
      WHERE o.id = $1`,
    [numberId],
  );
  return row && { ...row, accessToken: secrets.open(businessSecretPlace(row.companyId, row.businessId, "access_token"), row.accessToken) };
}

/** The RUNNING campaigns this number sends for, oldest first (re-read before every batch: a pause shows at once). */
export function runningCampaignsOf(sql: Sql, number: SendingNumber): Promise<{ id: number; business_id: number }[]> {
  return sql.many(
    `SELECT c.id, c.business_id FROM campaigns c JOIN official_numbers o ON ${CAMPAIGN_NUMBER_MATCH}
      WHERE c.status = 'RUNNING' AND c.company_id = $1 AND o.id = $2 ORDER BY c.id`,
    [number.companyId, number.id],
  );
}

export function campaignTemplates(sql: Sql, companyId: number, campaignId: number): Promise<CampaignTemplate[]> {
  return sql.many<CampaignTemplate>(
    `SELECT t.id, t.name, t.language, t.header_format, t.parameter_format, t.components
       FROM campaign_templates ct JOIN whatsapp_templates t ON t.company_id = ct.company_id AND t.id = ct.template_id
      WHERE ct.company_id = $1 AND ct.campaign_id = $2 ORDER BY ct.position, ct.template_id`,
    [companyId, campaignId],
  );
}

export interface ClaimedRow {
  id: string;
  phone: string;
  variables: string[];
  template_id: number | null;
  attempts: number;
}

/**
 * Claims up to `limit` rows in one statement: pending, due (next_attempt_at), and whose phone this
 * number has not been given within `pairGapMs` (by claim time, a conservative stand-in for the send
 * time: a claimed row is sent within its batch); `pending` → `sending` with claimed_at, the number,
 * and the template by rotation (row n gets template n mod k, in position order).
 */
export function claimRows(sql: Sql, campaignId: number, numberId: number, limit: number, pairGapMs: number): Promise<ClaimedRow[]> {
  return sql.many<ClaimedRow>(
    `WITH tpl AS (SELECT array_agg(template_id ORDER BY position, template_id) AS ids FROM campaign_templates WHERE campaign_id = $1),
     picked AS (
       SELECT r.id FROM campaign_recipients r
        WHERE r.campaign_id = $1 AND r.state = 'pending' AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= now())
          -- the status in the claim's own snapshot: a pause committed with a row's record (an account
          -- violation puts the row back to pending) is seen here, so that row is not taken again
          AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = $1 AND c.status = 'RUNNING')
          AND NOT EXISTS (SELECT 1 FROM campaign_recipients p
                           WHERE p.official_number_id = $2 AND p.phone = r.phone AND p.id <> r.id
                             AND p.claimed_at > now() - $4 * interval '1 millisecond')
        ORDER BY r.id LIMIT $3 FOR UPDATE OF r SKIP LOCKED)
     UPDATE campaign_recipients r
        SET state = 'sending', claimed_at = now(), official_number_id = $2,
            template_id = COALESCE(r.template_id, tpl.ids[1 + (r.row_number % greatest(cardinality(tpl.ids), 1))])
       FROM picked, tpl WHERE r.id = picked.id
     RETURNING r.id::text, r.phone, r.variables, r.template_id, r.attempts`,
    [campaignId, numberId, limit, pairGapMs],
  );
}

/** Rows of a business's campaigns whose sends are in flight (claimed, answer not recorded). */
export async function sendingCount(sql: Sql, companyId: number, businessId: number): Promise<number> {
  const row = await sql.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM campaigns c JOIN campaign_recipients r ON r.campaign_id = c.id AND r.state = 'sending'
      WHERE c.company_id = $1 AND c.business_id = $2 AND c.status IN ('RUNNING', 'WAITING', 'PAUSED')`,
    [companyId, businessId],
  );
  return row.n;
}
