import type { ScheduleStatus } from "@atende/shared";
import type { Sql } from "../../db/sql.js";

export interface ScheduleRow {
  id: number;
  company_id: number;
  body: string;
  send_at: Date;
  sent_at: Date | null;
  status: ScheduleStatus;
  error: string | null;
  contact_id: number;
  contact_name: string;
  contact_number: string;
  contact_profile_pic_url: string;
  contact_is_group: boolean;
  whatsapp_id: number | null;
  user_id: number | null;
  user_name: string | null;
  ticket_id: number | null;
  media_path: string | null;
  media_name: string | null;
  job_id: string | null;
  claimed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `
  SELECT s.id, s.company_id, s.body, s.send_at, s.sent_at, s.status, s.error, s.contact_id,
         c.name AS contact_name, c.number AS contact_number, c.profile_pic_url AS contact_profile_pic_url, c.is_group AS contact_is_group,
         s.whatsapp_id, s.user_id, u.name AS user_name, s.ticket_id, s.media_path, s.media_name, s.job_id, s.claimed_at, s.created_at, s.updated_at
    FROM schedules s
    JOIN contacts c ON c.company_id = s.company_id AND c.id = s.contact_id
    LEFT JOIN users u ON u.company_id = s.company_id AND u.id = s.user_id`;

export const PAGE_SIZE = 20;

export async function listSchedules(sql: Sql, companyId: number, o: { searchParam: string; pageNumber: number; contactId?: number }) {
  const params: unknown[] = [companyId];
  let where = "s.company_id = $1";
  if (o.contactId) {
    params.push(o.contactId);
    where += ` AND s.contact_id = $${params.length}`;
  }
  const search = o.searchParam.trim().toLowerCase();
  if (search) {
    params.push(`%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where += ` AND (lower(s.body) LIKE $${params.length} OR lower(c.name) LIKE $${params.length} OR lower(c.number) LIKE $${params.length})`;
  }
  const countRow = await sql.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM schedules s JOIN contacts c ON c.company_id = s.company_id AND c.id = s.contact_id WHERE ${where}`,
    params,
  );
  params.push(PAGE_SIZE, (o.pageNumber - 1) * PAGE_SIZE);
  const rows = await sql.many<ScheduleRow>(
    `${SELECT} WHERE ${where} ORDER BY s.send_at DESC, s.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { rows, count: countRow.n };
}

export function findSchedule(sql: Sql, companyId: number, id: number, opts: { lock?: boolean } = {}) {
  return sql.maybe<ScheduleRow>(`${SELECT} WHERE s.company_id = $1 AND s.id = $2${opts.lock ? " FOR UPDATE OF s" : ""}`, [companyId, id]);
}

export function contactExists(sql: Sql, companyId: number, contactId: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM contacts WHERE company_id = $1 AND id = $2", [companyId, contactId]);
}

export function whatsappExists(sql: Sql, companyId: number, whatsappId: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM whatsapps WHERE company_id = $1 AND id = $2", [companyId, whatsappId]);
}

export async function insertSchedule(
  sql: Sql,
  companyId: number,
  v: { body: string; sendAt: Date; contactId: number; whatsappId: number | null; userId: number },
) {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO schedules (company_id, body, send_at, contact_id, whatsapp_id, user_id, status)
     VALUES ($1, $2, $3, $4, $5, $6, 'PENDENTE') RETURNING id`,
    [companyId, v.body, v.sendAt, v.contactId, v.whatsappId, v.userId],
  );
  return row.id;
}

export function updateSchedule(
  sql: Sql,
  companyId: number,
  id: number,
  v: { body: string; sendAt: Date; contactId: number; whatsappId: number | null; rescheduled: boolean },
) {
  return sql.exec(
    `UPDATE schedules SET body = $3, send_at = $4, contact_id = $5, whatsapp_id = $6, updated_at = now(),
            status = CASE WHEN $7 THEN 'PENDENTE' ELSE status END,
            error = CASE WHEN $7 THEN NULL ELSE error END,
            job_id = CASE WHEN $7 THEN NULL ELSE job_id END
      WHERE company_id = $1 AND id = $2`,
    [companyId, id, v.body, v.sendAt, v.contactId, v.whatsappId, v.rescheduled],
  );
}

/** Records the queued job; only while the row still waits for the same send time. */
export function markQueued(sql: Sql, companyId: number, id: number, jobId: string, sendAt: Date) {
  return sql.exec(
    `UPDATE schedules SET status = 'AGENDADA', job_id = $3
      WHERE company_id = $1 AND id = $2 AND send_at = $4 AND sent_at IS NULL AND status IN ('PENDENTE', 'AGENDADA')`,
    [companyId, id, jobId, sendAt],
  );
}

export function claim(sql: Sql, companyId: number, id: number) {
  return sql.exec("UPDATE schedules SET claimed_at = now() WHERE company_id = $1 AND id = $2", [companyId, id]);
}

/** A claim given back before anything was sent (the connection was not ready), with the job that retries. */
export function releaseClaim(sql: Sql, companyId: number, id: number, jobId: string) {
  return sql.exec(
    "UPDATE schedules SET claimed_at = NULL, job_id = $3 WHERE company_id = $1 AND id = $2 AND sent_at IS NULL AND status IN ('PENDENTE', 'AGENDADA')",
    [companyId, id, jobId],
  );
}

export function markSent(sql: Sql, companyId: number, id: number, ticketId: number | null) {
  return sql.exec(
    "UPDATE schedules SET status = 'ENVIADA', sent_at = now(), claimed_at = NULL, ticket_id = $3, error = NULL, updated_at = now() WHERE company_id = $1 AND id = $2",
    [companyId, id, ticketId],
  );
}

export function markFailed(sql: Sql, companyId: number, id: number, error: string) {
  return sql.exec("UPDATE schedules SET status = 'ERRO', error = $3, claimed_at = NULL, updated_at = now() WHERE company_id = $1 AND id = $2", [
    companyId,
    id,
    error.slice(0, 1000),
  ]);
}

export function setMedia(sql: Sql, companyId: number, id: number, media: { path: string; name: string } | null) {
  return sql.exec("UPDATE schedules SET media_path = $3, media_name = $4, updated_at = now() WHERE company_id = $1 AND id = $2", [
    companyId,
    id,
    media?.path ?? null,
    media?.name ?? null,
  ]);
}

export function deleteSchedule(sql: Sql, companyId: number, id: number) {
  return sql.exec("DELETE FROM schedules WHERE company_id = $1 AND id = $2", [companyId, id]);
}

/** Unsent schedules whose job was never queued (a crash between saving and queueing). */
export function findUnqueued(sql: Sql) {
  return sql.many<{ id: number; company_id: number; send_at: Date }>(
    "SELECT id, company_id, send_at FROM schedules WHERE sent_at IS NULL AND status = 'PENDENTE' AND updated_at < now() - interval '30 seconds' LIMIT 1000",
  );
}
