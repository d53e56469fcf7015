import type { Sql } from "../../db/sql.js";
import { skipUnsent } from "../email-campaigns/actions.js";
import type { CampaignContent } from "./message.js";

export interface ClaimedRow {
  id: string;
  email: string;
  variables: string[];
  attempts: number;
}

const LEASE = "email-campaigns";

/** Takes (or renews) the platform's e-mail dispatch lease; false while another live process holds it. */
export async function holdLease(sql: Sql, ownerId: string, leaseMs: number): Promise<boolean> {
  const row = await sql.maybe(
    `INSERT INTO email_dispatch_lease (name, owner_id, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET owner_id = EXCLUDED.owner_id, expires_at = EXCLUDED.expires_at
      WHERE email_dispatch_lease.owner_id = EXCLUDED.owner_id OR email_dispatch_lease.expires_at < now()
     RETURNING name`,
    [LEASE, ownerId, leaseMs],
  );
  return row !== null;
}

export function releaseLease(sql: Sql, ownerId: string) {
  return sql.exec("DELETE FROM email_dispatch_lease WHERE name = $1 AND owner_id = $2", [LEASE, ownerId]);
}

export function activeCampaigns(sql: Sql) {
  return sql.many<{ id: number; company_id: number }>("SELECT id, company_id FROM email_campaigns WHERE status IN ('TRIGGERING', 'RUNNING') ORDER BY id");
}

export async function campaignContent(sql: Sql, id: number): Promise<CampaignContent | null> {
  const r = await sql.maybe<{ id: number; company_id: number; from_address: string; subject: string; html: string; variables: string[] }>(
    "SELECT id, company_id, from_address, subject, html, variables FROM email_campaigns WHERE id = $1",
    [id],
  );
  return r && { id: r.id, companyId: r.company_id, fromAddress: r.from_address, subject: r.subject, html: r.html, variables: r.variables };
}

/**
 * Claims up to `limit` due pending rows of a running campaign (oldest first, SKIP LOCKED) → `sending`
 * with `claimed_at`, committed before any is sent: a row is sent only from `pending`, so a crash after
 * this point can never send it twice. A TRIGGERING campaign becomes RUNNING with its first claim.
 */
export function claimRows(sql: Sql, campaignId: number, limit: number): Promise<ClaimedRow[]> {
  return sql.tx(async (tx) => {
    const status = await tx.maybe<{ status: string }>("SELECT status FROM email_campaigns WHERE id = $1 FOR UPDATE", [campaignId]);
    if (!status || (status.status !== "RUNNING" && status.status !== "TRIGGERING")) return [];
    const rows = await tx.many<ClaimedRow>(
      `UPDATE email_campaign_recipients r SET state = 'sending', claimed_at = now()
        WHERE r.id IN (SELECT id FROM email_campaign_recipients WHERE campaign_id = $1 AND state = 'pending'
                         AND (next_attempt_at IS NULL OR next_attempt_at <= now()) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING r.id::text, r.email, r.variables, r.attempts`,
      [campaignId, limit],
    );
    if (rows.length && status.status === "TRIGGERING") {
      await tx.exec("UPDATE email_campaigns SET status = 'RUNNING', updated_at = now() WHERE id = $1", [campaignId]);
    }
    rows.sort((a, b) => Number(a.id) - Number(b.id));
    return rows;
  });
}

/** RUNNING/TRIGGERING → FINISHED when no row is pending or sending; true when it moved. */
export async function finishIfDone(sql: Sql, campaignId: number): Promise<boolean> {
  const n = await sql.exec(
    `UPDATE email_campaigns c SET status = 'FINISHED', finished_at = now(), updated_at = now()
      WHERE c.id = $1 AND c.status IN ('TRIGGERING', 'RUNNING')
        AND NOT EXISTS (SELECT 1 FROM email_campaign_recipients r WHERE r.campaign_id = c.id AND r.state IN ('pending', 'sending'))`,
    [campaignId],
  );
  return n > 0;
}

/** The statuses of these campaigns (the dispatcher's pause and cancel watch). */
export function statusesOf(sql: Sql, ids: number[]) {
  return sql.many<{ id: number; status: string }>("SELECT id, status FROM email_campaigns WHERE id = ANY($1::int[])", [ids]);
}

/**
 * Rows claimed (`sending`) and never handed to the SMTP server (a pause, a cancel, a graceful stop):
 * back to `pending`, as if never claimed, or `skipped` when the campaign was cancelled meanwhile. Under
 * the campaign's row lock, so a concurrent cancel either sees them pending (and skips them) or runs first.
 */
export function releaseUnsent(sql: Sql, campaignId: number, rowIds: string[]): Promise<void> {
  if (!rowIds.length) return Promise.resolve();
  return sql.tx(async (tx) => {
    const c = await tx.maybe<{ company_id: number; status: string }>("SELECT company_id, status FROM email_campaigns WHERE id = $1 FOR UPDATE", [campaignId]);
    if (!c) return;
    if (c.status === "CANCELLED") {
      await skipUnsent(tx, c.company_id, campaignId, rowIds);
      return;
    }
    await tx.exec("UPDATE email_campaign_recipients SET state = 'pending', claimed_at = NULL WHERE id = ANY($1::bigint[]) AND state = 'sending'", [rowIds]);
  });
}
