import type { SentEmailStatus } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface SentEmailRow {
  id: number;
  company_id: number;
  sender: string;
  subject: string;
  message: string;
  status: SentEmailStatus;
  error: string | null;
  claimed_at: Date | null;
  user_name: string | null;
  created_at: Date;
}

const COLUMNS = `e.id, e.company_id, e.sender, e.subject, e.message, e.status, e.error, e.claimed_at, u.name AS user_name, e.created_at`;

/**
 * Serialises the company's sends (count then insert) across requests and processes, so two at once
 * cannot both pass the last free place of the hourly budget.
 */
export async function lockCompanyBudget(sql: Sql, companyId: number): Promise<void> {
  await sql.exec("SELECT pg_advisory_xact_lock(727160, $1)", [companyId]);
}

export async function countSentSince(sql: Sql, companyId: number, since: Date): Promise<number> {
  return (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sent_emails WHERE company_id = $1 AND created_at > $2", [companyId, since])).n;
}

export async function insertSentEmail(sql: Sql, companyId: number, e: { userId: number; to: string; subject: string; message: string }) {
  const { id } = await sql.one<{ id: number }>(
    "INSERT INTO sent_emails (company_id, user_id, sender, subject, message) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [companyId, e.userId, e.to, e.subject, e.message],
  );
  return id;
}

export function findSentEmail(sql: Sql, companyId: number, id: number, opts: { lock?: boolean } = {}) {
  return sql.maybe<SentEmailRow>(
    `SELECT ${COLUMNS} FROM sent_emails e LEFT JOIN users u ON u.id = e.user_id WHERE e.company_id = $1 AND e.id = $2${opts.lock ? " FOR UPDATE OF e" : ""}`,
    [companyId, id],
  );
}

export async function listSentEmails(sql: Sql, companyId: number, f: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    sql.many<SentEmailRow>(
      `SELECT ${COLUMNS} FROM sent_emails e LEFT JOIN users u ON u.id = e.user_id WHERE e.company_id = $1
        ORDER BY e.created_at DESC, e.id DESC LIMIT $2 OFFSET $3`,
      [companyId, f.limit, f.offset],
    ),
    sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sent_emails WHERE company_id = $1", [companyId]),
  ]);
  return { rows, count: total.n };
}

export async function claim(sql: Sql, companyId: number, id: number): Promise<void> {
  await sql.exec("UPDATE sent_emails SET status = 'sending', claimed_at = now() WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export async function markSent(sql: Sql, companyId: number, id: number): Promise<void> {
  await sql.exec("UPDATE sent_emails SET status = 'sent', sent_at = now(), error = NULL WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export async function markFailed(sql: Sql, companyId: number, id: number, error: string): Promise<void> {
  await sql.exec("UPDATE sent_emails SET status = 'failed', error = $3 WHERE company_id = $1 AND id = $2", [companyId, id, error.slice(0, 500)]);
}
