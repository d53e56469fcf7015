import type { Sql } from "../../db/sql.js";

export interface TokenConnection {
  id: number;
  company_id: number;
  token_digest: Buffer;
  use_external_api: boolean;
  company_status: boolean;
  due_date: string | null;
}

/**
 * The connection whose API token has this SHA-256 digest, with its company's plan flag and
 * subscription. Comparing digests (never the token itself) keeps the lookup's timing independent of
 * how much of a guessed token is right.
 */
export function connectionByTokenDigest(sql: Sql, digest: Buffer) {
  return sql.maybe<TokenConnection>(
    `SELECT w.id, w.company_id, sha256(convert_to(w.token, 'UTF8')) AS token_digest,
            p.use_external_api, c.status AS company_status, c.due_date
       FROM whatsapps w
       JOIN companies c ON c.id = w.company_id
       JOIN plans p ON p.id = c.plan_id
      WHERE w.token <> '' AND sha256(convert_to(w.token, 'UTF8')) = $1
      ORDER BY w.id LIMIT 1`,
    [digest],
  );
}

/** Whether the number belongs to one of the company's own connections. */
export async function isConnectionNumber(sql: Sql, companyId: number, number: string): Promise<boolean> {
  const row = await sql.maybe("SELECT 1 FROM whatsapps WHERE company_id = $1 AND number = $2 AND number <> '' LIMIT 1", [companyId, number]);
  return row !== null;
}
