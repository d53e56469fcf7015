import type { Sql } from "../../db/sql.js";

export interface WebhookEventRow {
  id: number;
  company_id: number;
  business_id: number;
  payload: unknown;
  status: "pending" | "processed" | "failed";
  attempts: number;
}

/** Stores a delivery once per body; null when the same body was already received. */
export async function insertEvent(sql: Sql, v: { companyId: number; businessId: number; sha256: string; payload: unknown }): Promise<number | null> {
  const row = await sql.maybe<{ id: number }>(
    `INSERT INTO webhook_events (company_id, business_id, body_sha256, payload) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (business_id, body_sha256) DO NOTHING RETURNING id`,
    [v.companyId, v.businessId, v.sha256, JSON.stringify(v.payload)],
  );
  return row?.id ?? null;
}

export function startAttempt(sql: Sql, id: number) {
  return sql.maybe<WebhookEventRow>(
    `UPDATE webhook_events SET attempts = attempts + 1 WHERE id = $1 AND status <> 'processed'
     RETURNING id, company_id, business_id, payload, status, attempts`,
    [id],
  );
}

/** startAttempt for several events at once (those already processed are left out). */
export function startAttempts(sql: Sql, ids: number[]) {
  return sql.many<WebhookEventRow>(
    `UPDATE webhook_events SET attempts = attempts + 1 WHERE id = ANY($1::bigint[]) AND status <> 'processed'
     RETURNING id, company_id, business_id, payload, status, attempts`,
    [ids],
  );
}

export function finishMany(sql: Sql, ids: number[]) {
  return sql.exec("UPDATE webhook_events SET status = 'processed', error = '', processed_at = now() WHERE id = ANY($1::bigint[])", [ids]);
}

export function finish(sql: Sql, id: number, error: string | null) {
  return sql.exec(
    `UPDATE webhook_events SET status = CASE WHEN $2::text IS NULL THEN 'processed' ELSE 'failed' END,
            error = COALESCE($2, ''), processed_at = CASE WHEN $2::text IS NULL THEN now() ELSE processed_at END
      WHERE id = $1`,
    [id, error],
  );
}

/** Deliveries stored but never processed (a crash between storing and queueing), for the start-up sweep. */
export function unprocessed(sql: Sql, olderThanSeconds: number) {
  return sql.many<{ id: number }>(
    "SELECT id FROM webhook_events WHERE status = 'pending' AND received_at < now() - make_interval(secs => $1) ORDER BY id LIMIT 10000",
    [olderThanSeconds],
  );
}
