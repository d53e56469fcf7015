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
