import type { Sql } from "../../db/sql.js";

export interface EmailSenderRow {
  id: number;
  email_address: string;
  verified_at: Date | null;
  verification_sent_at: Date;
  created_at: Date;
}
const COLUMNS = "id, email_address, verified_at, verification_sent_at, created_at";

export function findVerifiedSender(sql: Sql, companyId: number, id: number) {
  return sql.maybe<EmailSenderRow>(`SELECT ${COLUMNS} FROM email_senders WHERE company_id = $1 AND id = $2 AND verified_at IS NOT NULL`, [companyId, id]);
}

export function findSender(sql: Sql, companyId: number, id: number) {
  return sql.maybe<EmailSenderRow>(`SELECT ${COLUMNS} FROM email_senders WHERE company_id = $1 AND id = $2`, [companyId, id]);
}

export function listSenders(sql: Sql, companyId: number, verifiedOnly: boolean) {
  return sql.many<EmailSenderRow>(
    `SELECT ${COLUMNS} FROM email_senders WHERE company_id = $1 AND ($2 = false OR verified_at IS NOT NULL) ORDER BY email_address`,
    [companyId, verifiedOnly],
  );
}

/** The new sender's id, or null when the company already lists the address. */
export async function insertSender(sql: Sql, companyId: number, address: string): Promise<number | null> {
  const row = await sql.maybe<{ id: number }>(
    "INSERT INTO email_senders (company_id, email_address) VALUES ($1, $2) ON CONFLICT (company_id, email_address) DO NOTHING RETURNING id",
    [companyId, address],
  );
  return row?.id ?? null;
}

export function deleteSender(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM email_senders WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export function markVerificationSent(sql: Sql, companyId: number, id: number) {
  return sql.exec("UPDATE email_senders SET verification_sent_at = now() WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export function markVerified(sql: Sql, companyId: number, id: number) {
  return sql.maybe<{ email_address: string }>(
    "UPDATE email_senders SET verified_at = COALESCE(verified_at, now()) WHERE company_id = $1 AND id = $2 RETURNING email_address",
    [companyId, id],
  );
}
