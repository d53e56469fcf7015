import type { Sql } from "../db/sql.js";
import { loadActor, type RequestActor } from "./actor.js";
import { assertCompanyUsable } from "./company-state.js";
import { AppError } from "./errors.js";
import type { AccessClaims, TokenService } from "./tokens.js";

export const sessionExpired = () => new AppError("ERR_SESSION_EXPIRED", "Sessão expirada. Faça login novamente.");

/**
 * The one check behind every authenticated way in (API requests, socket handshakes, a socket's
 * refreshed token): a valid, unexpired access token whose session is live, whose user still exists,
 * and whose company may be used (`company-state.ts`). Throws the refusal as an AppError.
 * `beforeLoad` runs on the verified claims before the database is read (the request limits: a
 * company past its limit costs a signature check and a count, not a query).
 */
export async function authenticateAccessToken(
  sql: Sql,
  tokens: TokenService,
  token: string | null,
  beforeLoad?: (claims: AccessClaims) => Promise<void>,
): Promise<{ actor: RequestActor; expiresAt: number }> {
  const claims = token ? await tokens.verifyAccess(token) : null;
  if (!claims) throw sessionExpired();
  await beforeLoad?.(claims);
  const actor = await loadActor(sql, claims.userId, claims.companyId, claims.sessionId);
  if (!actor) throw sessionExpired();
  assertCompanyUsable(actor.company);
  return { actor, expiresAt: claims.expiresAt };
}
