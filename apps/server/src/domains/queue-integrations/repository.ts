import type { QueueIntegrationType } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface QueueIntegrationRow {
  id: number;
  company_id: number;
  type: QueueIntegrationType;
  name: string;
  project_name: string;
  json_content_sealed: string;
  json_content_mask: string;
  language: string;
  url_n8n: string;
  typebot_slug: string;
  typebot_expires: number;
  typebot_delay_message: number;
  typebot_keyword_finish: string;
  typebot_keyword_restart: string;
  typebot_unknown_message: string;
  typebot_restart_message: string;
  created_at: Date;
  updated_at: Date;
}

export interface IntegrationValues {
  type: QueueIntegrationType;
  name: string;
  projectName: string;
  jsonContentSealed: string;
  jsonContentMask: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
}

const COLUMNS = `id, company_id, type, name, project_name, json_content_sealed, json_content_mask, language, url_n8n, typebot_slug,
  typebot_expires, typebot_delay_message, typebot_keyword_finish, typebot_keyword_restart, typebot_unknown_message,
  typebot_restart_message, created_at, updated_at`;

const values = (v: IntegrationValues) => [
  v.type,
  v.name,
  v.projectName,
  v.jsonContentSealed,
  v.jsonContentMask,
  v.language,
  v.urlN8N,
  v.typebotSlug,
  v.typebotExpires,
  v.typebotDelayMessage,
  v.typebotKeywordFinish,
  v.typebotKeywordRestart,
  v.typebotUnknownMessage,
  v.typebotRestartMessage,
];

/** The company's integrations whose name contains `search`, by name; `limit` null: all of them. */
export async function pageIntegrations(sql: Sql, companyId: number, q: { search: string; limit: number | null; offset: number }) {
  const pattern = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [rows, count] = await Promise.all([
    sql.many<QueueIntegrationRow>(
      `SELECT ${COLUMNS} FROM queue_integrations WHERE company_id = $1 AND lower(name) LIKE $2
        ORDER BY lower(name), id LIMIT $3 OFFSET $4`,
      [companyId, pattern, q.limit, q.offset],
    ),
    sql.one<{ count: number }>("SELECT count(*)::int AS count FROM queue_integrations WHERE company_id = $1 AND lower(name) LIKE $2", [companyId, pattern]),
  ]);
  return { rows, count: count.count };
}

export function findIntegration(sql: Sql, companyId: number, id: number) {
  return sql.maybe<QueueIntegrationRow>(`SELECT ${COLUMNS} FROM queue_integrations WHERE company_id = $1 AND id = $2`, [companyId, id]);
}

/** `id` from nextRowId: the service account in `v` is sealed for that row. */
export function insertIntegration(sql: Sql, companyId: number, id: number, v: IntegrationValues) {
  return sql.one<QueueIntegrationRow>(
    `INSERT INTO queue_integrations (id, company_id, type, name, project_name, json_content_sealed, json_content_mask, language, url_n8n,
       typebot_slug, typebot_expires, typebot_delay_message, typebot_keyword_finish, typebot_keyword_restart, typebot_unknown_message,
       typebot_restart_message)
     VALUES ($16,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) RETURNING ${COLUMNS}`,
    [companyId, ...values(v), id],
  );
}

export function updateIntegration(sql: Sql, companyId: number, id: number, v: IntegrationValues) {
  return sql.maybe<QueueIntegrationRow>(
    `UPDATE queue_integrations SET type = $3, name = $4, project_name = $5, json_content_sealed = $6, json_content_mask = $7, language = $8,
       url_n8n = $9, typebot_slug = $10, typebot_expires = $11, typebot_delay_message = $12, typebot_keyword_finish = $13,
       typebot_keyword_restart = $14, typebot_unknown_message = $15, typebot_restart_message = $16, updated_at = now()
     WHERE company_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [companyId, id, ...values(v)],
  );
}

/** Deletes the integration and detaches it from the company's queues and connections (their columns have no foreign key). */
export async function deleteIntegration(sql: Sql, companyId: number, id: number): Promise<boolean> {
  const deleted = await sql.exec("DELETE FROM queue_integrations WHERE company_id = $1 AND id = $2", [companyId, id]);
  if (!deleted) return false;
  await sql.exec("UPDATE queues SET integration_id = NULL WHERE company_id = $1 AND integration_id = $2", [companyId, id]);
  await sql.exec("UPDATE whatsapps SET integration_id = NULL WHERE company_id = $1 AND integration_id = $2", [companyId, id]);
  await sql.exec("UPDATE tickets SET integration_id = NULL, use_integration = false WHERE company_id = $1 AND integration_id = $2", [companyId, id]);
  return true;
}

// ---- runtime: sessions per ticket ----

export interface SessionRow {
  ticket_id: number;
  integration_id: number;
  session_id: string | null;
  /** the last turn is older than the integration's typebotExpires minutes (0: never) */
  expired: boolean;
}

export function findSession(sql: Sql, companyId: number, ticketId: number, expiresMinutes: number) {
  return sql.maybe<SessionRow>(
    `SELECT ticket_id, integration_id, session_id,
            ($3::int > 0 AND last_at < now() - make_interval(mins => $3::int)) AS expired
       FROM queue_integration_sessions WHERE company_id = $1 AND ticket_id = $2`,
    [companyId, ticketId, expiresMinutes],
  );
}

export function saveSession(sql: Sql, companyId: number, ticketId: number, integrationId: number, sessionId: string | null) {
  return sql.exec(
    `INSERT INTO queue_integration_sessions (ticket_id, company_id, integration_id, session_id) VALUES ($2, $1, $3, $4)
     ON CONFLICT (company_id, ticket_id) DO UPDATE SET integration_id = EXCLUDED.integration_id, session_id = EXCLUDED.session_id, last_at = now()`,
    [companyId, ticketId, integrationId, sessionId],
  );
}

export function dropSession(sql: Sql, companyId: number, ticketId: number) {
  return sql.exec("DELETE FROM queue_integration_sessions WHERE company_id = $1 AND ticket_id = $2", [companyId, ticketId]);
}
