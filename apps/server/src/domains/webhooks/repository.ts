import type { Sql } from "../../db/sql.js";

export interface WebhookEventRow {
  id: number;
  company_id: number;
  business_id: number;
  payload: unknown;
  status: "pending" | "processed" | "failed";
  attempts: number;
  /** When the delivery's POST was stored (the webhook lag metric counts from it). */
  received_at?: Date;
}

export interface NewEvent {
  companyId: number;
  businessId: number;
  sha256: string;
  /** The body as received (valid JSON). */
  body: string;
}

/**
 * Stores deliveries once per body, in one statement: each one's new id, in order, or null when the
 * same body was already received (before, or earlier in the same list).
 */
export async function insertEvents(sql: Sql, events: NewEvent[]): Promise<(number | null)[]> {
  const rows = await sql.many<{ id: number; business_id: number; body_sha256: string }>(
    `INSERT INTO webhook_events (company_id, business_id, body_sha256, payload)
     SELECT v.company_id, v.business_id, v.sha, v.body::jsonb
       FROM unnest($1::int[], $2::int[], $3::text[], $4::text[]) WITH ORDINALITY AS v(company_id, business_id, sha, body, ord)
      ORDER BY v.ord
     ON CONFLICT (company_id, business_id, body_sha256) DO NOTHING RETURNING id, business_id, body_sha256`,
    [events.map((e) => e.companyId), events.map((e) => e.businessId), events.map((e) => e.sha256), events.map((e) => e.body)],
  );
  const ids = new Map(rows.map((r) => [`${r.business_id}:${r.body_sha256}`, Number(r.id)]));
  return events.map((e) => {
    const key = `${e.businessId}:${e.sha256}`;
    const id = ids.get(key) ?? null;
    ids.delete(key); // a second copy in the same list is a duplicate
    return id;
  });
}

export function startAttempt(sql: Sql, id: number) {
  return sql.maybe<WebhookEventRow>(
    `UPDATE webhook_events SET attempts = attempts + 1 WHERE id = $1 AND status <> 'processed'
     RETURNING id, company_id, business_id, payload, status, attempts`,
    [id],
  );
}

/** startAttempt for several events at once (those already processed, or out of attempts, are left out). */
export function startAttempts(sql: Sql, ids: number[], maxAttempts = Number.MAX_SAFE_INTEGER) {
  return sql.many<WebhookEventRow>(
    `UPDATE webhook_events SET attempts = attempts + 1 WHERE id = ANY($1::bigint[]) AND status <> 'processed' AND attempts < $2
     RETURNING id, company_id, business_id, payload, status, attempts, received_at`,
    [ids, maxAttempts],
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

/** Deliveries stored but never processed (a crash between storing and queueing), for the sweep; those out of attempts stay. */
export function unprocessed(sql: Sql, olderThanSeconds: number, maxAttempts: number) {
  return sql.many<{ id: number }>(
    `SELECT id FROM webhook_events
      WHERE status = 'pending' AND attempts < $2 AND received_at < now() - make_interval(secs => $1) ORDER BY id LIMIT 10000`,
    [olderThanSeconds, maxAttempts],
  );
}
