import type { Sql } from "../../db/sql.js";

export function findUserByEmail(sql: Sql, email: string) {
  return sql.maybe<{ id: number; company_id: number; name: string; email: string }>(
    "SELECT id, company_id, name, email::text AS email FROM users WHERE email = $1",
    [email],
  );
}

/** Supersedes the user's earlier codes and stores the new one. */
export async function replaceCode(sql: Sql, companyId: number, userId: number, codeHash: string, ttlMinutes: number) {
  await sql.exec("UPDATE password_resets SET used_at = now() WHERE company_id = $1 AND user_id = $2 AND used_at IS NULL", [companyId, userId]);
  await sql.exec(
    `INSERT INTO password_resets (company_id, user_id, code_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(mins => $4))`,
    [companyId, userId, codeHash, ttlMinutes],
  );
}

/** The user's live code (unused, unexpired), locked for the check. */
export function lockLiveCode(sql: Sql, companyId: number, userId: number) {
  return sql.maybe<{ id: number; code_hash: string; attempts: number }>(
    `SELECT id, code_hash, attempts FROM password_resets
      WHERE company_id = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [companyId, userId],
  );
}

/** Counts a wrong attempt; the code is burnt at the limit. */
export function countWrongAttempt(sql: Sql, id: number, maxAttempts: number) {
  return sql.exec(
    "UPDATE password_resets SET attempts = attempts + 1, used_at = CASE WHEN attempts + 1 >= $2 THEN now() ELSE used_at END WHERE id = $1",
    [id, maxAttempts],
  );
}

export function markUsed(sql: Sql, id: number) {
  return sql.exec("UPDATE password_resets SET used_at = now() WHERE id = $1", [id]);
}

/** New password; the caller ends the user's sessions (core/sessions.ts). */
export async function setPassword(sql: Sql, companyId: number, userId: number, passwordHash: string) {
  await sql.exec("UPDATE users SET password_hash = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, userId, passwordHash]);
}
