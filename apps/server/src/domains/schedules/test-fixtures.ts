import type { Sql } from "../../db/sql.js";

/** Test rows for tables whose factories live in other domains. */
export async function insertContact(sql: Sql, companyId: number, o: { name?: string; number?: string; whatsappId?: number | null } = {}) {
  const row = await sql.one<{ id: number }>(
    "INSERT INTO contacts (company_id, name, number, whatsapp_id) VALUES ($1, $2, $3, $4) RETURNING id",
    [companyId, o.name ?? "Maria Silva", o.number ?? `5511${Math.floor(1e8 + Math.random() * 9e8)}`, o.whatsappId ?? null],
  );
  return row.id;
}

export async function insertWhatsapp(sql: Sql, companyId: number, o: { isDefault?: boolean } = {}) {
  const row = await sql.one<{ id: number }>(
    "INSERT INTO whatsapps (company_id, name, provider, status, is_default) VALUES ($1, $2, 'sandbox', 'CONNECTED', $3) RETURNING id",
    [companyId, `Conexão ${Math.random().toString(36).slice(2, 8)}`, o.isDefault ?? false],
  );
  return row.id;
}

export async function insertTicket(sql: Sql, companyId: number, o: { contactId: number; status?: string; queueId?: number | null; userId?: number | null; whatsappId?: number | null }) {
  const row = await sql.one<{ id: number }>(
    "INSERT INTO tickets (company_id, contact_id, status, queue_id, user_id, whatsapp_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    [companyId, o.contactId, o.status ?? "open", o.queueId ?? null, o.userId ?? null, o.whatsappId ?? null],
  );
  return row.id;
}
