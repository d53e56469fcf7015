import { SETTING_DEFAULTS, type SettingKey } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

/** A company setting, or its documented default when the company has no row for it. */
export async function companySetting(sql: Sql, companyId: number, key: SettingKey): Promise<string> {
  const row = await sql.maybe<{ value: string }>("SELECT value FROM settings WHERE company_id = $1 AND key = $2", [companyId, key]);
  return row?.value ?? SETTING_DEFAULTS[key];
}

export async function settingEnabled(sql: Sql, companyId: number, key: SettingKey): Promise<boolean> {
  return (await companySetting(sql, companyId, key)) === "enabled";
}
