import type { FastifyBaseLogger } from "fastify";
import type { Sql } from "../db/sql.js";
import { TtlCache } from "./ttl-cache.js";

/** Why a session ended; stored in `sessions.revoked_reason` for support and audits. */
export type RevokeReason =
  | "logout"
  | "login_elsewhere"
  | "password_reset"
  | "password_changed"
  | "demoted"
  | "company_inactive"
  | "company_expired"
  /** A refresh token presented again after its reuse grace: it may have been stolen, so its session ends. */
  | "refresh_token_reused";

/** Which live sessions to end: one session, a user's (optionally but one), or a whole company's. */
export interface SessionScope {
  companyId: number;
  userId?: number;
  sessionId?: string;
  exceptSessionId?: string;
}

export async function createSession(sql: Sql, companyId: number, userId: number): Promise<string> {
  const row = await sql.one<{ id: string }>("INSERT INTO sessions (company_id, user_id) VALUES ($1, $2) RETURNING id", [companyId, userId]);
  return row.id;
}

/**
 * Ends the live sessions in scope and spends their refresh tokens; returns their ids. Their access
 * tokens stop working on the next request (the per-request check in `loadActor`); the caller
 * closes their sockets with `Realtime.endSessions` once its transaction has committed.
 */
export async function revokeSessions(sql: Sql, scope: SessionScope, reason: RevokeReason): Promise<string[]> {
  const rows = await sql.many<{ id: string }>(
    `UPDATE sessions SET revoked_at = now(), revoked_reason = $5
      WHERE company_id = $1 AND revoked_at IS NULL
        AND ($2::int IS NULL OR user_id = $2)
        AND ($3::uuid IS NULL OR id = $3)
        AND ($4::uuid IS NULL OR id <> $4)
      RETURNING id`,
    [scope.companyId, scope.userId ?? null, scope.sessionId ?? null, scope.exceptSessionId ?? null, reason],
  );
  const ids = rows.map((r) => r.id);
  if (ids.length) {
    await sql.exec("UPDATE refresh_tokens SET revoked_at = now() WHERE session_id = ANY($1::uuid[]) AND revoked_at IS NULL", [ids]);
  }
  return ids;
}

/**
 * Records that a session is in use (`last_seen_at`), at most once a minute per session and process,
 * so a busy session does not turn every request into a write.
 */
export class SessionActivity {
  private readonly touched = new TtlCache<string, void>(60_000);

  constructor(
    private readonly sql: Sql,
    private readonly log: FastifyBaseLogger,
  ) {}

  touch(companyId: number, sessionId: string): void {
    this.touched
      .get(sessionId, async () => {
        await this.sql.exec("UPDATE sessions SET last_seen_at = now() WHERE company_id = $1 AND id = $2", [companyId, sessionId]);
      })
      .catch((err: unknown) => this.log.warn({ err, companyId, sessionId }, "could not record session activity"));
  }
}
