import type { Sql } from "../../db/sql.js";

export function listSettings(sql: Sql, companyId: number) {
  return sql.many<{ key: string; value: string }>("SELECT key, value FROM settings WHERE company_id = $1 ORDER BY key", [companyId]);
}

export async function getSetting(sql: Sql, companyId: number, key: string): Promise<string | null> {
  const row = await sql.maybe<{ value: string }>("SELECT value FROM settings WHERE company_id = $1 AND key = $2", [companyId, key]);
  return row?.value ?? null;
}

export function upsertSetting(sql: Sql, companyId: number, key: string, value: string) {
  return sql.exec(
    `INSERT INTO settings (company_id, key, value) VALUES ($1, $2, $3)
     ON CONFLICT (company_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [companyId, key, value],
  );
}

/** The platform company's setting (e.g. userCreation governs public sign-up). */
export async function getPlatformSetting(sql: Sql, key: string): Promise<string | null> {
  const row = await sql.maybe<{ value: string }>(
    "SELECT s.value FROM settings s JOIN companies c ON c.id = s.company_id WHERE c.is_platform AND s.key = $1",
    [key],
  );
  return row?.value ?? null;
}

/** The companies row keeps campaignsEnabled too (2-administration §3 lists it on the company). */
export function setCompanyCampaignsEnabled(sql: Sql, companyId: number, enabled: boolean) {
  return sql.exec("UPDATE companies SET campaigns_enabled = $2, updated_at = now() WHERE id = $1", [companyId, enabled]);
}
