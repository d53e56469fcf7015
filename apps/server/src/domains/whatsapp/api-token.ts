import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Sql } from "../../db/sql.js";

/**
 * A connection's Messages API token (POST /api/messages/send). The server generates it (32 random
 * bytes, base64url), returns it once, and stores only HMAC-SHA256(key, token), where the key is derived
 * from the app secret with HKDF: a stolen database alone neither reveals nor lets anyone test tokens.
 */

const keys = new Map<string, Buffer>();
function hashKey(appSecret: string): Buffer {
  let key = keys.get(appSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", appSecret, "", "atende/messages-api-token/v1", 32));
    keys.set(appSecret, key);
  }
  return key;
}

export const generateApiToken = (): string => randomBytes(32).toString("base64url");

export const apiTokenHash = (appSecret: string, token: string): Buffer => createHmac("sha256", hashKey(appSecret)).update(token, "utf8").digest();

/** What the admin sees after the token was shown once: enough to tell two tokens apart. */
export const apiTokenHint = (token: string): string => token.slice(-4);

/**
 * Tokens written before migration 0152 are plaintext (admins chose them). The hash key is not in
 * the database, so they are hashed here, once, at start-up; the plaintext is emptied in the same
 * statement. A token another connection already hashes to is dropped (it never worked for this one).
 */
export async function hashLegacyTokens(sql: Sql, appSecret: string, log: FastifyBaseLogger): Promise<void> {
  const rows = await sql.many<{ id: number; company_id: number; token: string }>("SELECT id, company_id, token FROM whatsapps WHERE token <> ''");
  for (const row of rows) {
    const hash = apiTokenHash(appSecret, row.token);
    const taken = await sql.maybe("SELECT 1 FROM whatsapps WHERE token_hash = $1 AND id <> $2", [hash, row.id]);
    await sql.exec("UPDATE whatsapps SET token = '', token_hash = $2, token_hint = $3 WHERE id = $1 AND token = $4", [
      row.id,
      taken ? null : hash,
      taken ? "" : apiTokenHint(row.token),
      row.token,
    ]);
    log.info({ whatsappId: row.id, companyId: row.company_id, dropped: Boolean(taken) }, "messages API token hashed");
  }
}
