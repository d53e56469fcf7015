import { SETTING_DEFAULTS, type SessionUser } from "@atende/shared";
import type { SessionRow } from "./repository.js";

/** Stored settings over the documented defaults, as the key/value list the web reads. */
export function withSettingDefaults(stored: { key: string; value: string }[]): { key: string; value: string }[] {
  const map = new Map<string, string>(Object.entries(SETTING_DEFAULTS));
  for (const s of stored) map.set(s.key, s.value);
  return [...map.entries()].map(([key, value]) => ({ key, value }));
}

export function presentSessionUser(row: SessionRow): SessionUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    super: row.super,
    companyId: row.company_id,
    allTicket: row.all_ticket,
    whatsappId: row.whatsapp_id,
    queues: row.queues,
    company: {
      id: row.company_id,
      name: row.company_name,
      dueDate: row.due_date,
      biUrl: row.bi_url,
      timeZone: row.time_zone,
      settings: withSettingDefaults(row.settings),
      plan: row.plan as SessionUser["company"]["plan"],
    },
  };
}
