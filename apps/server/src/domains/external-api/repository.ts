import type { Sql } from "../../db/sql.js";

export interface TokenConnection {
  id: number;
  company_id: number;
  use_external_api: boolean;
  use_campaigns: boolean;
  company_status: boolean;
  due_date: string | null;
}

/**
 * The connection whose Messages API token has this keyed hash, with its company's plan flag and
 * subscription: one lookup through the unique index on token_hash. The hash is an HMAC under a
 * server-side key, so the index comparison reveals nothing usable about a guessed token.
 */
export function connectionByTokenHash(sql: Sql, hash: Buffer) {
  return sql.maybe<TokenConnection>(
    `SELECT w.id, w.company_id, p.use_external_api, p.use_campaigns, c.status AS company_status, c.due_date
       FROM whatsapps w
       JOIN companies c ON c.id = w.company_id
       JOIN plans p ON p.id = c.plan_id
      WHERE w.token_hash = $1`,
    [hash],
  );
}
