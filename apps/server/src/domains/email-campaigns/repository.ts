import type { Sql } from "../../db/sql.js";

/** An e-mail campaign with its cost center's name and sender address (every query scoped by company). */
export interface EmailCampaignRow {
  id: number;
  company_id: number;
  title: string;
  status: string;
  source: number;
  cost_center_id: number;
  cost_center_name: string;
  sender_id: number | null;
  from_address: string;
  template_id: number;
  subject: string;
  html: string;
  file_name: string;
  file_path: string;
  error_message: string;
  variables: string[];
  count_total: number;
  count_invalid: number;
  count_emails_sent: number;
  count_emails_delivered: number;
  count_emails_opened: number;
  count_emails_clicked: number;
  count_emails_not_delivered: number;
  created_at: Date;
}

const COLUMNS = `c.id, c.company_id, c.title, c.status, c.source, c.cost_center_id, cc.name AS cost_center_name, c.sender_id, c.from_address,
  c.template_id, c.subject, c.html, c.file_name, c.file_path, c.error_message, c.variables, c.count_total, c.count_invalid,
  c.count_emails_sent, c.count_emails_delivered, c.count_emails_opened, c.count_emails_clicked, c.count_emails_not_delivered, c.created_at`;
const FROM = "FROM email_campaigns c JOIN cost_centers cc ON cc.company_id = c.company_id AND cc.id = c.cost_center_id";

export function findEmailCampaign(sql: Sql, companyId: number, id: number): Promise<EmailCampaignRow | null> {
  return sql.maybe<EmailCampaignRow>(`SELECT ${COLUMNS} ${FROM} WHERE c.company_id = $1 AND c.id = $2`, [companyId, id]);
}

export interface EmailListFilter {
  companyId: number;
  start?: Date;
  end?: Date;
  status?: string;
  costCenterId?: number;
  limit: number;
  offset: number;
}

export async function listEmailCampaigns(sql: Sql, f: EmailListFilter): Promise<{ rows: EmailCampaignRow[]; count: number }> {
  const where = `c.company_id = $1 AND ($2::timestamptz IS NULL OR c.created_at >= $2) AND ($3::timestamptz IS NULL OR c.created_at < $3)
    AND ($4::text IS NULL OR c.status = $4) AND ($5::int IS NULL OR c.cost_center_id = $5)`;
  const params = [f.companyId, f.start ?? null, f.end ?? null, f.status ?? null, f.costCenterId ?? null];
  const [rows, total] = await Promise.all([
    sql.many<EmailCampaignRow>(`SELECT ${COLUMNS} ${FROM} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $6 OFFSET $7`, [...params, f.limit, f.offset]),
    sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM email_campaigns c WHERE ${where}`, params),
  ]);
  return { rows, count: total.count };
}

export interface NewEmailCampaign {
  companyId: number;
  userId: number | null;
  title: string;
  source: number;
  costCenterId: number;
  senderId: number;
  fromAddress: string;
  templateId: number;
  subject: string;
  html: string;
  fileName: string;
}

export async function insertEmailCampaign(sql: Sql, c: NewEmailCampaign): Promise<number> {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO email_campaigns (company_id, user_id, title, source, cost_center_id, sender_id, from_address, template_id, subject, html, file_name, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'MISSING_FILE') RETURNING id`,
    [c.companyId, c.userId, c.title, c.source, c.costCenterId, c.senderId, c.fromAddress, c.templateId, c.subject, c.html, c.fileName],
  );
  return row.id;
}

export function costCenterExists(sql: Sql, companyId: number, id: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM cost_centers WHERE company_id = $1 AND id = $2", [companyId, id]);
}

/** A page of the campaign's rows that are not sent (invalid at the analysis, or skipped), in file order, with their count. */
export async function invalidRows(sql: Sql, companyId: number, campaignId: number, limit: number, offset: number) {
  const where = "company_id = $1 AND campaign_id = $2 AND state IN ('invalid', 'skipped')";
  const [rows, total] = await Promise.all([
    sql.many<{ id: number; row_number: number; phone: string; email: string; reason: string }>(
      `SELECT id::int AS id, row_number, phone, email, invalid_reason AS reason FROM email_campaign_recipients WHERE ${where} ORDER BY row_number LIMIT $3 OFFSET $4`,
      [companyId, campaignId, limit, offset],
    ),
    sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM email_campaign_recipients WHERE ${where}`, [companyId, campaignId]),
  ]);
  return { results: rows, count: total.count };
}
