import type { SecretSealer } from "../../core/secrets/sealer.js";
import type { Sql } from "../../db/sql.js";

export interface BusinessRow {
  id: number;
  company_id: number;
  name: string;
  waba_id: string;
  has_access_token: boolean;
  has_app_secret: boolean;
  has_verify_token: boolean;
  account_status: string;
  phone_numbers_count: number;
  templates_count: number;
  last_sync_at: Date | null;
  sandbox: boolean;
  sandbox_failure_rate: number;
  created_at: Date;
  updated_at: Date;
}

/** The secrets, opened, read only by the server itself (Graph calls, webhook checks); never presented. */
export interface BusinessSecrets {
  id: number;
  company_id: number;
  waba_id: string;
  access_token: string;
  app_secret: string;
  verify_token: string;
}

const COLUMNS = `b.id, b.company_id, b.name, b.waba_id, b.access_token <> '' AS has_access_token, b.app_secret <> '' AS has_app_secret,
  b.verify_token <> '' AS has_verify_token, b.account_status, b.last_sync_at, b.sandbox, b.sandbox_failure_rate::float8 AS sandbox_failure_rate, b.created_at, b.updated_at,
  (SELECT count(*)::int FROM official_numbers o WHERE o.company_id = b.company_id AND o.business_id = b.id) AS phone_numbers_count,
  (SELECT count(*)::int FROM whatsapp_templates t WHERE t.company_id = b.company_id AND t.business_id = b.id) AS templates_count`;

export function listBusinesses(sql: Sql, companyId: number) {
  return sql.many<BusinessRow>(`SELECT ${COLUMNS} FROM businesses b WHERE b.company_id = $1 ORDER BY b.name, b.id`, [companyId]);
}

export function findBusiness(sql: Sql, companyId: number, id: number) {
  return sql.maybe<BusinessRow>(`SELECT ${COLUMNS} FROM businesses b WHERE b.company_id = $1 AND b.id = $2`, [companyId, id]);
}

export function findByWaba(sql: Sql, companyId: number, wabaId: string, exceptId = 0) {
  return sql.maybe<{ id: number }>("SELECT id FROM businesses WHERE company_id = $1 AND waba_id = $2 AND id <> $3", [companyId, wabaId, exceptId]);
}

type SecretColumn = "access_token" | "app_secret" | "verify_token";

/** Where a business's secret is sealed (core/secrets): its company, column and row. */
export const businessSecretPlace = (companyId: number, id: number, column: SecretColumn) => ({ companyId, column: `businesses.${column}`, row: id });

function opened(secrets: SecretSealer, r: BusinessSecrets): BusinessSecrets {
  const open = (column: SecretColumn) => secrets.open(businessSecretPlace(r.company_id, r.id, column), r[column]);
  return { ...r, access_token: open("access_token"), app_secret: open("app_secret"), verify_token: open("verify_token") };
}

const SECRETS = "SELECT id, company_id, waba_id, access_token, app_secret, verify_token FROM businesses";

export async function findSecrets(sql: Sql, secrets: SecretSealer, companyId: number, id: number): Promise<BusinessSecrets | null> {
  const row = await sql.maybe<BusinessSecrets>(`${SECRETS} WHERE company_id = $1 AND id = $2`, [companyId, id]);
  return row && opened(secrets, row);
}

/**
 * The webhook's business, found by the id in its public URL (the only lookup not scoped by a session's
 * company). The sandbox business has no secrets and receives no webhooks: never found here.
 */
export async function findSecretsForWebhook(sql: Sql, secrets: SecretSealer, id: number): Promise<BusinessSecrets | null> {
  const row = await sql.maybe<BusinessSecrets>(`${SECRETS} WHERE id = $1 AND NOT sandbox`, [id]);
  return row && opened(secrets, row);
}

/**
 * The businesses registered with a WABA id, in any company (a webhook entry names its WABA; the caller
 * keeps only those signed with the same app secret as the delivery); never the sandbox business.
 */
export async function findSecretsByWaba(sql: Sql, secrets: SecretSealer, wabaId: string): Promise<BusinessSecrets[]> {
  const rows = await sql.many<BusinessSecrets>(`${SECRETS} WHERE waba_id = $1 AND NOT sandbox ORDER BY id`, [wabaId]);
  return rows.map((r) => opened(secrets, r));
}

export interface BusinessValues {
  name: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

/** `id` from nextRowId; the secrets in `v` are already sealed for that row. */
export async function insertBusiness(sql: Sql, companyId: number, id: number, v: BusinessValues): Promise<number> {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO businesses (id, company_id, name, waba_id, access_token, app_secret, verify_token)
     VALUES ($7, $1, $2, $3, $4, $5, $6) RETURNING id`,
    [companyId, v.name, v.wabaId, v.accessToken, v.appSecret, v.verifyToken, id],
  );
  return row.id;
}

/** Empty or missing secrets keep the stored ones; given ones are already sealed for this row. */
export function updateBusiness(sql: Sql, companyId: number, id: number, v: Partial<BusinessValues>) {
  return sql.exec(
    `UPDATE businesses SET name = COALESCE($3, name), waba_id = COALESCE($4, waba_id),
            access_token = COALESCE(NULLIF($5, ''), access_token), app_secret = COALESCE(NULLIF($6, ''), app_secret),
            verify_token = COALESCE(NULLIF($7, ''), verify_token), updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [companyId, id, v.name ?? null, v.wabaId ?? null, v.accessToken ?? null, v.appSecret ?? null, v.verifyToken ?? null],
  );
}

export function markSynced(sql: Sql, companyId: number, id: number, accountStatus: string | null) {
  return sql.exec(
    "UPDATE businesses SET last_sync_at = now(), account_status = COALESCE($3, account_status), updated_at = now() WHERE company_id = $1 AND id = $2",
    [companyId, id, accountStatus],
  );
}
