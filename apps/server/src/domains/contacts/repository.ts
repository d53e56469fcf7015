import type { Sql } from "../../db/sql.js";
import { resolveWhatsappContact } from "./identity.js";

export interface ContactRow {
  id: number;
  company_id: number;
  name: string;
  number: string;
  email: string;
  document: string;
  profile_pic_url: string;
  is_group: boolean;
  extra_info: { name: string; value: string }[];
  whatsapp_id: number | null;
  whatsapp_name: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `ct.id, ct.company_id, ct.name, ct.number, ct.email, ct.document, ct.profile_pic_url, ct.is_group, ct.extra_info,
  ct.whatsapp_id, w.name AS whatsapp_name, ct.created_at, ct.updated_at`;
const JOINS = "LEFT JOIN whatsapps w ON w.company_id = ct.company_id AND w.id = ct.whatsapp_id";

export function findContact(sql: Sql, companyId: number, id: number) {
  return sql.maybe<ContactRow>(`SELECT ${COLUMNS} FROM contacts ct ${JOINS} WHERE ct.company_id = $1 AND ct.id = $2`, [companyId, id]);
}

export function findContacts(sql: Sql, companyId: number, ids: number[]) {
  return sql.many<ContactRow>(`SELECT ${COLUMNS} FROM contacts ct ${JOINS} WHERE ct.company_id = $1 AND ct.id = ANY($2::int[]) ORDER BY ct.id`, [companyId, ids]);
}

/** Escapes LIKE wildcards in user input. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function pageContacts(sql: Sql, companyId: number, search: string, limit: number, offset: number) {
  const params: unknown[] = [companyId];
  let where = "ct.company_id = $1";
  if (search.trim()) {
    params.push(`%${likeEscape(search.trim().toLowerCase())}%`);
    const digits = search.replace(/\D/g, "");
    if (digits) {
      params.push(`%${digits}%`);
      where += ` AND (lower(ct.name) LIKE $2 OR lower(ct.number) LIKE $3)`;
    } else {
      where += ` AND lower(ct.name) LIKE $2`;
    }
  }
  const rows = await sql.many<ContactRow>(
    `SELECT ${COLUMNS} FROM contacts ct ${JOINS} WHERE ${where} ORDER BY lower(ct.name), ct.id LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    params,
  );
  const count = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM contacts ct WHERE ${where}`, params);
  return { rows, count: count.n };
}

export function listContacts(sql: Sql, companyId: number, search: string, limit: number) {
  const params: unknown[] = [companyId];
  let where = "ct.company_id = $1";
  if (search.trim()) {
    params.push(`%${likeEscape(search.trim().toLowerCase())}%`);
    where += " AND (lower(ct.name) LIKE $2 OR lower(ct.number) LIKE $2)";
  }
  return sql.many<ContactRow>(`SELECT ${COLUMNS} FROM contacts ct ${JOINS} WHERE ${where} ORDER BY lower(ct.name), ct.id LIMIT ${Number(limit)}`, params);
}

export interface ContactFields {
  name: string;
  number: string;
  email: string;
  document: string;
  extraInfo: { name: string; value: string }[];
  whatsappId: number | null;
}

/** Null when the number is already a contact of the company. */
export async function insertContact(sql: Sql, companyId: number, f: ContactFields): Promise<number | null> {
  const row = await sql.maybe<{ id: number }>(
    `INSERT INTO contacts (company_id, name, number, email, document, extra_info, whatsapp_id)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT (company_id, number) DO NOTHING RETURNING id`,
    [companyId, f.name, f.number, f.email, f.document, JSON.stringify(f.extraInfo), f.whatsappId],
  );
  return row?.id ?? null;
}

export async function updateContact(sql: Sql, companyId: number, id: number, f: Partial<ContactFields>): Promise<void> {
  const map: Record<string, unknown> = {
    name: f.name,
    number: f.number,
    email: f.email,
    document: f.document,
    extra_info: f.extraInfo === undefined ? undefined : JSON.stringify(f.extraInfo),
    whatsapp_id: f.whatsappId,
  };
  const params: unknown[] = [companyId, id];
  const sets: string[] = [];
  for (const [k, v] of Object.entries(map)) {
    if (v === undefined) continue;
    params.push(v);
    sets.push(k === "extra_info" ? `${k} = $${params.length}::jsonb` : `${k} = $${params.length}`);
  }
  sets.push("updated_at = now()");
  await sql.exec(`UPDATE contacts SET ${sets.join(", ")} WHERE company_id = $1 AND id = $2`, params);
}

export function deleteContact(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM contacts WHERE company_id = $1 AND id = $2", [companyId, id]);
}

/**
 * Finds the company's contact with this number (in any of its forms, see core/phone.ts) or creates it
 * in the stored form; `created` tells which. `fromWhatsapp`: the number is WhatsApp's own id for the
 * contact (a number check's answer), kept as its WhatsApp id.
 */
export async function findOrCreateByNumber(
  sql: Sql,
  companyId: number,
  c: { number: string; name: string; isGroup: boolean; whatsappId: number | null; fromWhatsapp?: boolean },
): Promise<{ id: number; created: boolean }> {
  const r = await resolveWhatsappContact(sql, companyId, { address: c.number, name: c.name, isGroup: c.isGroup, whatsappId: c.whatsappId, fromWhatsapp: c.fromWhatsapp ?? false });
  return { id: r.id, created: r.created };
}
