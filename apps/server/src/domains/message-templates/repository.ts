import type { Sql } from "../../db/sql.js";

/** SMS and e-mail templates (migration 0701), read by their campaigns; the routes live beside. */
export interface SmsTemplateRow {
  id: number;
  title: string;
  content: string;
  modified_at: Date;
}

export interface EmailTemplateRow {
  id: number;
  title: string;
  subject: string;
  content: string;
  updated_at: Date;
}

export function findSmsTemplate(sql: Sql, companyId: number, id: number) {
  return sql.maybe<SmsTemplateRow>("SELECT id, title, content, modified_at FROM sms_templates WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export function findEmailTemplate(sql: Sql, companyId: number, id: number) {
  return sql.maybe<EmailTemplateRow>("SELECT id, title, subject, content, updated_at FROM email_templates WHERE company_id = $1 AND id = $2", [
    companyId,
    id,
  ]);
}

/** `%`, `_` and `\` are letters in a title search, not wildcards. */
const likePattern = (text: string) => (text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null);

interface PageFilter {
  title: string;
  limit: number;
  offset: number;
}

/** A page of the company's SMS templates, the most recently changed first, and the total. */
export async function listSmsTemplates(sql: Sql, companyId: number, f: PageFilter) {
  const like = likePattern(f.title);
  const where = "company_id = $1 AND ($2::text IS NULL OR title ILIKE $2)";
  const [rows, total] = await Promise.all([
    sql.many<SmsTemplateRow>(`SELECT id, title, content, modified_at FROM sms_templates WHERE ${where} ORDER BY modified_at DESC, id DESC LIMIT $3 OFFSET $4`, [
      companyId,
      like,
      f.limit,
      f.offset,
    ]),
    sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM sms_templates WHERE ${where}`, [companyId, like]),
  ]);
  return { rows, count: total.n };
}

export function insertSmsTemplate(sql: Sql, companyId: number, t: { title: string; content: string }) {
  return sql.one<SmsTemplateRow>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, $2, $3) RETURNING id, title, content, modified_at", [
    companyId,
    t.title,
    t.content,
  ]);
}

export function updateSmsTemplate(sql: Sql, companyId: number, id: number, t: { title: string; content: string }) {
  return sql.maybe<SmsTemplateRow>(
    "UPDATE sms_templates SET title = $3, content = $4, modified_at = now() WHERE company_id = $1 AND id = $2 RETURNING id, title, content, modified_at",
    [companyId, id, t.title, t.content],
  );
}

/** A page of the company's e-mail templates (without their HTML), the most recently changed first, and the total. */
export async function listEmailTemplates(sql: Sql, companyId: number, f: PageFilter) {
  const like = likePattern(f.title);
  const where = "company_id = $1 AND ($2::text IS NULL OR title ILIKE $2)";
  const [rows, total] = await Promise.all([
    sql.many<Omit<EmailTemplateRow, "content">>(
      `SELECT id, title, subject, updated_at FROM email_templates WHERE ${where} ORDER BY updated_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [companyId, like, f.limit, f.offset],
    ),
    sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM email_templates WHERE ${where}`, [companyId, like]),
  ]);
  return { rows, count: total.n };
}

export function insertEmailTemplate(sql: Sql, companyId: number, t: { title: string; subject: string; content: string }) {
  return sql.one<EmailTemplateRow>(
    "INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, $2, $3, $4) RETURNING id, title, subject, content, updated_at",
    [companyId, t.title, t.subject, t.content],
  );
}

export function updateEmailTemplate(sql: Sql, companyId: number, id: number, t: { title: string; subject: string; content: string }) {
  return sql.maybe<EmailTemplateRow>(
    `UPDATE email_templates SET title = $3, subject = $4, content = $5, updated_at = now() WHERE company_id = $1 AND id = $2
      RETURNING id, title, subject, content, updated_at`,
    [companyId, id, t.title, t.subject, t.content],
  );
}
