import type { Sql } from "../../db/sql.js";

export interface WhatsappRow {
  id: number;
  company_id: number;
  name: string;
  provider: "sandbox" | "baileys" | "official";
  status: string;
  qrcode: string;
  retries: number;
  number: string;
  is_default: boolean;
  is_official: boolean;
  greeting_message: string;
  complation_message: string;
  out_of_hours_message: string;
  rating_message: string;
  transfer_queue_id: number | null;
  expires_ticket: number;
  expires_inactive_message: string;
  time_use_bot_queues: number;
  max_use_bot_queues: number;
  prompt_id: number | null;
  integration_id: number | null;
  /** The last characters of the Messages API token ('' when none); the token itself is never stored. */
  token_hint: string;
  queues: { id: number; name: string; color: string; greetingMessage: string }[];
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `w.id, w.company_id, w.name, w.provider, w.status, w.qrcode, w.retries, w.number, w.is_default, w.is_official,
  w.greeting_message, w.complation_message, w.out_of_hours_message, w.rating_message, w.transfer_queue_id,
  w.expires_ticket, w.expires_inactive_message, w.time_use_bot_queues, w.max_use_bot_queues, w.prompt_id, w.integration_id, w.token_hint,
  COALESCE((SELECT json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color, 'greetingMessage', q.greeting_message)
                            ORDER BY q.order_queue NULLS LAST, q.id)
              FROM whatsapp_queues wq JOIN queues q ON q.company_id = wq.company_id AND q.id = wq.queue_id
             WHERE wq.company_id = w.company_id AND wq.whatsapp_id = w.id), '[]') AS queues,
  w.created_at, w.updated_at`;

export function listWhatsapps(sql: Sql, companyId: number) {
  return sql.many<WhatsappRow>(`SELECT ${COLUMNS} FROM whatsapps w WHERE w.company_id = $1 ORDER BY w.name, w.id`, [companyId]);
}

export function findWhatsapp(sql: Sql, companyId: number, id: number) {
  return sql.maybe<WhatsappRow>(`SELECT ${COLUMNS} FROM whatsapps w WHERE w.company_id = $1 AND w.id = $2`, [companyId, id]);
}

export function defaultWhatsapp(sql: Sql, companyId: number) {
  return sql.maybe<WhatsappRow>(
    `SELECT ${COLUMNS} FROM whatsapps w WHERE w.company_id = $1 ORDER BY w.is_default DESC, (w.status = 'CONNECTED') DESC, w.id LIMIT 1`,
    [companyId],
  );
}

/** Every connection whose session was connected, across companies (started on server start). */
export function connectedWhatsapps(sql: Sql) {
  return sql.many<{ id: number; company_id: number; provider: string }>(
    "SELECT id, company_id, provider FROM whatsapps WHERE status = 'CONNECTED' ORDER BY id",
  );
}

export interface WhatsappFields {
  name?: string;
  provider?: string;
  is_default?: boolean;
  greeting_message?: string;
  complation_message?: string;
  out_of_hours_message?: string;
  rating_message?: string;
  transfer_queue_id?: number | null;
  expires_ticket?: number;
  expires_inactive_message?: string;
  time_use_bot_queues?: number;
  max_use_bot_queues?: number;
  prompt_id?: number | null;
  integration_id?: number | null;
}

export async function insertWhatsapp(sql: Sql, companyId: number, f: WhatsappFields): Promise<number> {
  const keys = Object.keys(f).filter((k) => f[k as keyof WhatsappFields] !== undefined);
  const cols = ["company_id", ...keys];
  const values = [companyId, ...keys.map((k) => f[k as keyof WhatsappFields])];
  const row = await sql.one<{ id: number }>(
    `INSERT INTO whatsapps (${cols.join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")}) RETURNING id`,
    values,
  );
  return row.id;
}

export async function updateWhatsapp(sql: Sql, companyId: number, id: number, f: WhatsappFields & { status?: string; qrcode?: string; number?: string; retries?: number }) {
  const entries = Object.entries(f).filter(([, v]) => v !== undefined);
  if (!entries.length) return;
  const params: unknown[] = [companyId, id];
  const sets = entries.map(([k, v]) => {
    params.push(v);
    return `${k} = $${params.length}`;
  });
  await sql.exec(`UPDATE whatsapps SET ${sets.join(", ")}, updated_at = now() WHERE company_id = $1 AND id = $2`, params);
}

/** Replaces the connection's Messages API token (the old one stops working at once). */
export function setApiToken(sql: Sql, companyId: number, id: number, token: { hash: Buffer; hint: string }) {
  return sql.exec("UPDATE whatsapps SET token = '', token_hash = $3, token_hint = $4, updated_at = now() WHERE company_id = $1 AND id = $2", [
    companyId,
    id,
    token.hash,
    token.hint,
  ]);
}

export async function clearOtherDefaults(sql: Sql, companyId: number, keepId: number) {
  await sql.exec("UPDATE whatsapps SET is_default = false WHERE company_id = $1 AND id <> $2 AND is_default", [companyId, keepId]);
}

export async function setQueues(sql: Sql, companyId: number, whatsappId: number, queueIds: number[]) {
  await sql.exec("DELETE FROM whatsapp_queues WHERE company_id = $1 AND whatsapp_id = $2", [companyId, whatsappId]);
  if (queueIds.length) {
    await sql.exec(
      `INSERT INTO whatsapp_queues (company_id, whatsapp_id, queue_id)
       SELECT $1, $2, q.id FROM queues q WHERE q.company_id = $1 AND q.id = ANY($3::int[])`,
      [companyId, whatsappId, queueIds],
    );
  }
}

export function countCompanyQueues(sql: Sql, companyId: number, ids: number[]) {
  return sql.one<{ n: number }>("SELECT count(*)::int AS n FROM queues WHERE company_id = $1 AND id = ANY($2::int[])", [companyId, ids]);
}

export function deleteWhatsapp(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM whatsapps WHERE company_id = $1 AND id = $2", [companyId, id]);
}
