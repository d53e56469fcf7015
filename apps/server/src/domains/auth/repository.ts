import type { Sql } from "../../db/sql.js";

export interface LoginUserRow {
  id: number;
  company_id: number;
  password_hash: string;
}

export function findUserByEmail(sql: Sql, email: string) {
  return sql.maybe<LoginUserRow>("SELECT id, company_id, password_hash FROM users WHERE email = $1", [email]);
}

export function insertRefreshToken(sql: Sql, session: { companyId: number; userId: number; sessionId: string }, hash: string, expiresAt: Date) {
  return sql.exec(
    "INSERT INTO refresh_tokens (company_id, user_id, session_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)",
    [session.companyId, session.userId, session.sessionId, hash, expiresAt],
  );
}

/**
 * A spent refresh token still works for this many seconds after its first use: a page reloaded (or
 * left) while its refresh was on the way never received the new cookie and presents the old one
 * again; without the grace the user would be sent to the login page though the session is live.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/**
 * Marks the token used and returns its owner and session, if it was valid and its session live; a
 * token works once, or again within REFRESH_REUSE_GRACE_SECONDS of its first use.
 */
export function consumeRefreshToken(sql: Sql, hash: string) {
  return sql.maybe<{ company_id: number; user_id: number; session_id: string }>(
    `UPDATE refresh_tokens t SET revoked_at = COALESCE(t.revoked_at, now())
      WHERE t.token_hash = $1 AND t.expires_at > now()
        AND (t.revoked_at IS NULL OR t.revoked_at > now() - make_interval(secs => $2))
        AND EXISTS (SELECT 1 FROM sessions s WHERE s.id = t.session_id AND s.revoked_at IS NULL)
      RETURNING t.company_id, t.user_id, t.session_id`,
    [hash, REFRESH_REUSE_GRACE_SECONDS],
  );
}

/**
 * A refresh token spent longer ago than REFRESH_REUSE_GRACE_SECONDS whose session is still live: two
 * holders of the same token (the user's browser and whoever copied its cookie) — its owner and session.
 */
export function findReusedRefreshToken(sql: Sql, hash: string) {
  return sql.maybe<{ company_id: number; user_id: number; session_id: string }>(
    `SELECT t.company_id, t.user_id, t.session_id FROM refresh_tokens t
       JOIN sessions s ON s.company_id = t.company_id AND s.id = t.session_id AND s.revoked_at IS NULL
      WHERE t.token_hash = $1 AND t.revoked_at <= now() - make_interval(secs => $2)`,
    [hash, REFRESH_REUSE_GRACE_SECONDS],
  );
}

export async function userEmail(sql: Sql, companyId: number, userId: number): Promise<string | null> {
  return (await sql.maybe<{ email: string }>("SELECT email::text AS email FROM users WHERE company_id = $1 AND id = $2", [companyId, userId]))?.email ?? null;
}

export function markOnline(sql: Sql, companyId: number, userId: number) {
  return sql.exec("UPDATE users SET online = true, updated_at = now() WHERE id = $1 AND company_id = $2", [userId, companyId]);
}

export function setOffline(sql: Sql, companyId: number, userId: number) {
  return sql.exec("UPDATE users SET online = false WHERE id = $1 AND company_id = $2", [userId, companyId]);
}

export interface SessionRow {
  id: number;
  name: string;
  email: string;
  profile: "admin" | "supervisor" | "user";
  super: boolean;
  company_id: number;
  all_ticket: "enable" | "disable";
  whatsapp_id: number | null;
  token_version: number;
  company_name: string;
  due_date: string | null;
  time_zone: string;
  company_status: boolean;
  is_platform: boolean;
  bi_url: string;
  plan: Record<string, unknown>;
  queues: { id: number; name: string; color: string }[];
  settings: { key: string; value: string }[];
}

export function loadSessionUser(sql: Sql, companyId: number, userId: number) {
  return sql.maybe<SessionRow>(
    `SELECT u.id, u.name, u.email::text AS email, u.profile, u.super, u.company_id, u.all_ticket, u.whatsapp_id, u.token_version,
            c.name AS company_name, c.due_date, c.time_zone, c.status AS company_status, c.is_platform, c.bi_url,
            json_build_object('name', p.name, 'useCampaigns', p.use_campaigns, 'useSchedules', p.use_schedules,
              'useInternalChat', p.use_internal_chat, 'useExternalApi', p.use_external_api, 'useKanban', p.use_kanban,
              'useOpenAi', p.use_open_ai, 'useIntegrations', p.use_integrations) AS plan,
            COALESCE((SELECT json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) ORDER BY q.name)
                        FROM user_queues uq JOIN queues q ON q.company_id = uq.company_id AND q.id = uq.queue_id
                       WHERE uq.company_id = u.company_id AND uq.user_id = u.id), '[]') AS queues,
            COALESCE((SELECT json_agg(json_build_object('key', s.key, 'value', s.value) ORDER BY s.key)
                        FROM settings s WHERE s.company_id = u.company_id), '[]') AS settings
       FROM users u JOIN companies c ON c.id = u.company_id JOIN plans p ON p.id = c.plan_id
      WHERE u.id = $1 AND u.company_id = $2`,
    [userId, companyId],
  );
}
