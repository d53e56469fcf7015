import type { SecretSealer } from "../../core/secrets/sealer.js";
import { businessSecretPlace } from "../businesses/repository.js";
import { contactKeys } from "../../core/phone.js";
import type { Sql } from "../../db/sql.js";

export interface OfficialNumberRow {
  id: number;
  company_id: number;
  whatsapp_id: number;
  whatsapp_name: string;
  whatsapp_status: string;
  business_id: number;
  business_name: string;
  phone_number_id: string;
  phone_number: string;
  display_phone_number: string;
  verified_name: string;
  messaging_limit: string;
  phone_status: "ACTIVE" | "DISABLED";
  phone_status_reason: string;
  account_status: string;
  account_violation: boolean;
  violation_type: string;
  operating_status: string;
  quality_score: string;
  can_send_message: string;
  health_errors: { code: string; description: string }[];
  active: boolean;
  transfer_queue_id: number | null;
  transfer_queue_name: string | null;
  transfer_queue_color: string | null;
  throughput_per_second: number;
  updated_at: Date;
}

const COLUMNS = `o.id, o.company_id, o.whatsapp_id, w.name AS whatsapp_name, w.status AS whatsapp_status, o.business_id,
  b.name AS business_name, o.phone_number_id, o.phone_number, o.display_phone_number, o.verified_name, o.messaging_limit,
  o.phone_status, o.phone_status_reason, COALESCE(NULLIF(o.account_status, ''), b.account_status) AS account_status, o.account_violation, o.violation_type, o.operating_status,
  o.quality_score, o.can_send_message, o.health_errors, o.active, o.transfer_queue_id, q.name AS transfer_queue_name,
  q.color AS transfer_queue_color, o.throughput_per_second, o.updated_at`;
const JOINS = `JOIN whatsapps w ON w.company_id = o.company_id AND w.id = o.whatsapp_id
  JOIN businesses b ON b.company_id = o.company_id AND b.id = o.business_id
  LEFT JOIN queues q ON q.company_id = o.company_id AND q.id = o.transfer_queue_id`;

export interface NumberFilters {
  phoneNumber?: string;
  businessId?: number;
  phoneStatus?: "ACTIVE" | "DISABLED";
  active?: boolean;
}

export function listNumbers(sql: Sql, companyId: number, f: NumberFilters = {}) {
  const params: unknown[] = [companyId];
  const where = ["o.company_id = $1"];
  const digits = (f.phoneNumber ?? "").replace(/\D/g, "");
  if (f.phoneNumber?.trim()) {
    params.push(`%${digits || f.phoneNumber.trim()}%`);
    where.push(`(o.phone_number LIKE $${params.length} OR o.display_phone_number ILIKE $${params.length} OR o.verified_name ILIKE $${params.length})`);
  }
  if (f.businessId) {
    params.push(f.businessId);
    where.push(`o.business_id = $${params.length}`);
  }
  if (f.phoneStatus) {
    params.push(f.phoneStatus);
    where.push(`o.phone_status = $${params.length}`);
  }
  if (f.active !== undefined) {
    params.push(f.active);
    where.push(`o.active = $${params.length}`);
  }
  return sql.many<OfficialNumberRow>(`SELECT ${COLUMNS} FROM official_numbers o ${JOINS} WHERE ${where.join(" AND ")} ORDER BY b.name, o.phone_number, o.id`, params);
}

export function findNumber(sql: Sql, companyId: number, id: number) {
  return sql.maybe<OfficialNumberRow>(`SELECT ${COLUMNS} FROM official_numbers o ${JOINS} WHERE o.company_id = $1 AND o.id = $2`, [companyId, id]);
}

export function findNumbersByIds(sql: Sql, companyId: number, ids: number[]) {
  return sql.many<OfficialNumberRow>(`SELECT ${COLUMNS} FROM official_numbers o ${JOINS} WHERE o.company_id = $1 AND o.id = ANY($2::int[]) ORDER BY o.id`, [
    companyId,
    ids,
  ]);
}

/** What the Cloud API driver needs to send for a connection: the number's Graph id and the account's token (opened). */
export async function findSendTarget(sql: Sql, secrets: SecretSealer, companyId: number, whatsappId: number) {
  const row = await sql.maybe<{ phone_number_id: string; business_id: number; access_token: string; active: boolean }>(
    `SELECT o.phone_number_id, o.business_id, b.access_token, o.active
       FROM official_numbers o JOIN businesses b ON b.company_id = o.company_id AND b.id = o.business_id
      WHERE o.company_id = $1 AND o.whatsapp_id = $2`,
    [companyId, whatsappId],
  );
  return row && { ...row, access_token: secrets.open(businessSecretPlace(companyId, row.business_id, "access_token"), row.access_token) };
}

/** The official number a webhook's `metadata.phone_number_id` names, within the webhook's business. */
export function findByPhoneNumberId(sql: Sql, companyId: number, businessId: number, phoneNumberId: string) {
  return sql.maybe<{ id: number; whatsapp_id: number }>(
    "SELECT id, whatsapp_id FROM official_numbers WHERE company_id = $1 AND business_id = $2 AND phone_number_id = $3",
    [companyId, businessId, phoneNumberId],
  );
}

export function numbersOfBusiness(sql: Sql, companyId: number, businessId: number) {
  return sql.many<{ id: number; whatsapp_id: number; phone_number_id: string; phone_number: string }>(
    "SELECT id, whatsapp_id, phone_number_id, phone_number FROM official_numbers WHERE company_id = $1 AND business_id = $2",
    [companyId, businessId],
  );
}

/** Fields Meta reports about a number (sync, quality and account webhooks). */
export interface NumberState {
  phone_number?: string;
  display_phone_number?: string;
  verified_name?: string;
  messaging_limit?: string;
  phone_status?: "ACTIVE" | "DISABLED";
  phone_status_reason?: string;
  account_status?: string;
  account_violation?: boolean;
  violation_type?: string;
  operating_status?: string;
  quality_score?: string;
  can_send_message?: string;
  health_errors?: { code: string; description: string }[];
}

function setClause(state: NumberState, params: unknown[]): string[] {
  return Object.entries(state)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      params.push(k === "health_errors" ? JSON.stringify(v) : v);
      return `${k} = $${params.length}${k === "health_errors" ? "::jsonb" : ""}`;
    });
}

export async function insertNumber(
  sql: Sql,
  companyId: number,
  v: { whatsappId: number; businessId: number; phoneNumberId: string } & NumberState,
): Promise<number> {
  const { whatsappId, businessId, phoneNumberId, ...state } = v;
  const row = await sql.one<{ id: number }>(
    "INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id) VALUES ($1, $2, $3, $4) RETURNING id",
    [companyId, whatsappId, businessId, phoneNumberId],
  );
  await updateNumberState(sql, companyId, row.id, state);
  return row.id;
}

export async function updateNumberState(sql: Sql, companyId: number, id: number, state: NumberState): Promise<void> {
  const params: unknown[] = [companyId, id];
  const sets = setClause(state, params);
  if (!sets.length) return;
  await sql.exec(`UPDATE official_numbers SET ${sets.join(", ")}, updated_at = now() WHERE company_id = $1 AND id = $2`, params);
}

/** Administrative fields (page edit and bulk edit); the connection's transfer queue follows. */
export async function updateAdmin(sql: Sql, companyId: number, ids: number[], v: { active?: boolean; transferQueueId?: number | null }) {
  const rows = await sql.many<{ id: number; whatsapp_id: number }>(
    `UPDATE official_numbers
        SET active = CASE WHEN $3::boolean IS NULL THEN active ELSE $3 END,
            transfer_queue_id = CASE WHEN $4::boolean THEN $5::int ELSE transfer_queue_id END,
            updated_at = now()
      WHERE company_id = $1 AND id = ANY($2::int[])
      RETURNING id, whatsapp_id`,
    [companyId, ids, v.active ?? null, v.transferQueueId !== undefined, v.transferQueueId ?? null],
  );
  if (v.transferQueueId !== undefined && rows.length) {
    await sql.exec("UPDATE whatsapps SET transfer_queue_id = $3, updated_at = now() WHERE company_id = $1 AND id = ANY($2::int[])", [
      companyId,
      rows.map((r) => r.whatsapp_id),
      v.transferQueueId,
    ]);
  }
  return rows;
}

/** Records a customer's message time (the 24-hour window); never moves it back. */
export function touchConversation(sql: Sql, companyId: number, whatsappId: number, number: string, at: Date) {
  return sql.exec(
    `INSERT INTO official_conversations (company_id, whatsapp_id, contact_number, last_inbound_at) VALUES ($1, $2, $3, LEAST($4::timestamptz, now()))
     ON CONFLICT (company_id, whatsapp_id, contact_number) DO UPDATE SET last_inbound_at = GREATEST(official_conversations.last_inbound_at, EXCLUDED.last_inbound_at)`,
    [companyId, whatsappId, number, at],
  );
}

/** When the contact (any form of its number, or its user id) last wrote on the connection: the 24-hour window. */
export async function lastInboundAt(sql: Sql, companyId: number, whatsappId: number, address: string): Promise<Date | null> {
  const row = await sql.maybe<{ last_inbound_at: Date }>(
    `SELECT max(last_inbound_at) AS last_inbound_at FROM official_conversations
      WHERE company_id = $1 AND whatsapp_id = $2 AND contact_number = ANY($3::text[]) HAVING count(*) > 0`,
    [companyId, whatsappId, contactKeys(address)],
  );
  return row?.last_inbound_at ?? null;
}

/** The newest message the contact sent on the connection (what "read" marks). */
export function lastInboundProviderId(sql: Sql, companyId: number, whatsappId: number, address: string) {
  return sql.maybe<{ provider_id: string }>(
    `SELECT m.provider_id FROM messages m JOIN contacts c ON c.company_id = m.company_id AND c.id = m.contact_id
      WHERE m.company_id = $1 AND m.whatsapp_id = $2 AND (c.number = ANY($3::text[]) OR c.wa_id = $4 OR c.wa_user_id = $4)
        AND NOT m.from_me AND m.provider_id IS NOT NULL
      ORDER BY m.id DESC LIMIT 1`,
    [companyId, whatsappId, contactKeys(address), address],
  );
}

export function saveMessageStatus(
  sql: Sql,
  v: { companyId: number; whatsappId: number; providerId: string; status: string; ack: number; errorCode?: number | null; errorTitle?: string; errorDetail?: string },
) {
  return sql.exec(
    `INSERT INTO official_message_statuses (company_id, whatsapp_id, provider_id, status, ack, error_code, error_title, error_detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (company_id, whatsapp_id, provider_id) DO UPDATE SET
       status = CASE WHEN EXCLUDED.status = 'failed' THEN 'failed'
                     WHEN official_message_statuses.status = 'failed' AND EXCLUDED.ack <= 2 THEN 'failed'
                     WHEN EXCLUDED.ack >= official_message_statuses.ack THEN EXCLUDED.status
                     ELSE official_message_statuses.status END,
       ack = GREATEST(official_message_statuses.ack, EXCLUDED.ack),
       error_code = COALESCE(EXCLUDED.error_code, official_message_statuses.error_code),
       error_title = CASE WHEN EXCLUDED.error_title <> '' THEN EXCLUDED.error_title ELSE official_message_statuses.error_title END,
       error_detail = CASE WHEN EXCLUDED.error_detail <> '' THEN EXCLUDED.error_detail ELSE official_message_statuses.error_detail END,
       updated_at = now()`,
    [v.companyId, v.whatsappId, v.providerId, v.status, v.ack, v.errorCode ?? null, v.errorTitle ?? "", v.errorDetail ?? ""],
  );
}

/**
 * A failed send: the message shows the error state (ack 0, send_status `failed` with Meta's error)
 * unless it was already delivered or read.
 */
export function markMessageFailed(sql: Sql, companyId: number, whatsappId: number, providerId: string, error: string) {
  return sql.maybe<{ id: number; ticket_id: number }>(
    `UPDATE messages SET ack = 0, send_status = 'failed', send_error = $4, updated_at = now()
      WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3 AND from_me AND ack BETWEEN 1 AND 2
      RETURNING id, ticket_id`,
    [companyId, whatsappId, providerId, error.slice(0, 1000)],
  );
}

/** Meta's error of a failed status as one line: "title (code): detail". */
export function statusErrorText(s: { error_code: number | null; error_title: string; error_detail: string }): string {
  const head = [s.error_title, s.error_code !== null ? `(${s.error_code})` : ""].filter(Boolean).join(" ");
  return [head, s.error_detail].filter(Boolean).join(": ") || "Falha no envio";
}
