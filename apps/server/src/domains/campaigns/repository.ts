import type { Sql } from "../../db/sql.js";

/** A campaign row with its cost center's name, template and number ids (every query scoped by company). */
export interface CampaignRow {
  id: number;
  company_id: number;
  name: string;
  status: string;
  source: "WEB" | "API";
  cost_center_id: number;
  cost_center_name: string;
  business_id: number;
  queue_id: number | null;
  account_violation: string;
  error_message: string;
  file_path: string;
  file_name: string;
  encoding: string;
  count_total: number;
  count_invalid: number;
  count_expired: number;
  count_processed: number;
  count_failed: number;
  count_replied: number;
  count_sent: number;
  count_delivered: number;
  count_read: number;
  analysed_rows: number;
  scheduled_at: Date | null;
  schedule_job_id: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  template_ids: number[];
  phone_ids: number[];
}

const COLUMNS = `c.id, c.company_id, c.name, c.status, c.source, c.cost_center_id, cc.name AS cost_center_name, c.business_id,
  c.queue_id, c.account_violation, c.error_message, c.file_path, c.file_name, c.encoding, c.count_total, c.count_invalid,
  c.count_expired, c.count_processed, c.count_failed, c.count_replied, c.count_sent, c.count_delivered, c.count_read,
  c.analysed_rows, c.scheduled_at, c.schedule_job_id, c.started_at, c.finished_at, c.created_at,
  COALESCE((SELECT array_agg(ct.template_id ORDER BY ct.position) FROM campaign_templates ct
             WHERE ct.company_id = c.company_id AND ct.campaign_id = c.id), '{}') AS template_ids,
  COALESCE((SELECT array_agg(cn.official_number_id ORDER BY cn.official_number_id) FROM campaign_numbers cn
             WHERE cn.company_id = c.company_id AND cn.campaign_id = c.id), '{}') AS phone_ids`;
const FROM = "FROM campaigns c JOIN cost_centers cc ON cc.company_id = c.company_id AND cc.id = c.cost_center_id";

export function findCampaign(sql: Sql, companyId: number, id: number): Promise<CampaignRow | null> {
  return sql.maybe<CampaignRow>(`SELECT ${COLUMNS} ${FROM} WHERE c.company_id = $1 AND c.id = $2`, [companyId, id]);
}

export interface ListFilter {
  companyId: number;
  start?: Date;
  end?: Date;
  status?: string;
  costCenterId?: number;
  limit: number;
  offset: number;
}

export async function listCampaigns(sql: Sql, f: ListFilter): Promise<{ rows: CampaignRow[]; count: number }> {
  const where = `c.company_id = $1 AND ($2::timestamptz IS NULL OR c.created_at >= $2) AND ($3::timestamptz IS NULL OR c.created_at < $3)
    AND ($4::text IS NULL OR c.status = $4) AND ($5::int IS NULL OR c.cost_center_id = $5)`;
  const params = [f.companyId, f.start ?? null, f.end ?? null, f.status ?? null, f.costCenterId ?? null];
  const [rows, total] = await Promise.all([
    sql.many<CampaignRow>(`SELECT ${COLUMNS} ${FROM} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $6 OFFSET $7`, [
      ...params,
      f.limit,
      f.offset,
    ]),
    sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM campaigns c WHERE ${where}`, params),
  ]);
  return { rows, count: total.count };
}

/** Scheduled campaigns whose start falls in [start, end) (the calendar). */
export function listScheduled(sql: Sql, companyId: number, start: Date, end: Date): Promise<CampaignRow[]> {
  return sql.many<CampaignRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE c.company_id = $1 AND c.scheduled_at >= $2 AND c.scheduled_at < $3 ORDER BY c.scheduled_at, c.id`,
    [companyId, start, end],
  );
}

export interface NewCampaign {
  companyId: number;
  userId: number;
  name: string;
  costCenterId: number;
  businessId: number;
  queueId: number;
  integrationId: number | null;
  fileName: string;
  fileSize: number;
  scheduledAt: Date | null;
}

export async function insertCampaign(sql: Sql, c: NewCampaign, templateIds: number[], numberIds: number[]): Promise<number> {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO campaigns (company_id, user_id, name, cost_center_id, business_id, queue_id, integration_id, file_name, file_size, scheduled_at, source, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'WEB', 'ANALYZING') RETURNING id`,
    [c.companyId, c.userId, c.name, c.costCenterId, c.businessId, c.queueId, c.integrationId, c.fileName, c.fileSize, c.scheduledAt],
  );
  await sql.exec(
    `INSERT INTO campaign_templates (company_id, campaign_id, template_id, position)
     SELECT $1, $2, t.id, t.pos - 1 FROM unnest($3::int[]) WITH ORDINALITY AS t(id, pos)`,
    [c.companyId, row.id, templateIds],
  );
  await sql.exec(
    `INSERT INTO campaign_numbers (company_id, campaign_id, official_number_id) SELECT $1, $2, unnest($3::int[])`,
    [c.companyId, row.id, numberIds],
  );
  return row.id;
}

export function setFilePath(sql: Sql, companyId: number, id: number, filePath: string) {
  return sql.exec("UPDATE campaigns SET file_path = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, id, filePath]);
}

export function setSchedule(sql: Sql, companyId: number, id: number, at: Date | null, jobId: string | null) {
  return sql.exec("UPDATE campaigns SET scheduled_at = $3, schedule_job_id = $4, updated_at = now() WHERE company_id = $1 AND id = $2", [
    companyId,
    id,
    at,
    jobId,
  ]);
}

export function costCenterExists(sql: Sql, companyId: number, id: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM cost_centers WHERE company_id = $1 AND id = $2", [companyId, id]);
}
export function queueExists(sql: Sql, companyId: number, id: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM queues WHERE company_id = $1 AND id = $2", [companyId, id]);
}
export function integrationExists(sql: Sql, companyId: number, id: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM queue_integrations WHERE company_id = $1 AND id = $2", [companyId, id]);
}
/** The company's bots (queue integrations) for the campaign form's optional Bot field. */
export function listBots(sql: Sql, companyId: number) {
  return sql.many<{ id: number; name: string }>("SELECT id, name FROM queue_integrations WHERE company_id = $1 ORDER BY lower(name), id", [companyId]);
}
export function businessExists(sql: Sql, companyId: number, id: number) {
  return sql.maybe<{ id: number }>("SELECT id FROM businesses WHERE company_id = $1 AND id = $2", [companyId, id]);
}

export interface TemplateCheckRow {
  id: number;
  business_id: number;
  name: string;
  status: string;
  category: string;
  header_format: string;
  components: unknown;
  variable_count: number;
  parameter_format: string;
}
export function templatesOf(sql: Sql, companyId: number, ids: number[]) {
  return sql.many<TemplateCheckRow>(
    `SELECT id, business_id, name, status, category, header_format, components, variable_count, parameter_format
       FROM whatsapp_templates WHERE company_id = $1 AND id = ANY($2::int[])`,
    [companyId, ids],
  );
}
export function activeNumbersOf(sql: Sql, companyId: number, businessId: number) {
  return sql.many<{ id: number }>(
    "SELECT id FROM official_numbers WHERE company_id = $1 AND business_id = $2 AND active AND phone_status = 'ACTIVE' ORDER BY id",
    [companyId, businessId],
  );
}

export interface RecipientRow {
  id: string;
  row_number: number;
  phone: string;
  cpf: string;
  email: string;
  state: "invalid" | "pending" | "sending" | "sent" | "delivered" | "read" | "failed" | "expired";
  invalid_reason: string;
  error_code: number | null;
  error_message: string;
}

export async function listRecipients(sql: Sql, companyId: number, campaignId: number, state: string | undefined, limit: number, offset: number) {
  const params = [companyId, campaignId, state ?? null];
  const where = "company_id = $1 AND campaign_id = $2 AND ($3::text IS NULL OR state = $3)";
  const [rows, total] = await Promise.all([
    sql.many<RecipientRow>(
      `SELECT id::text, row_number, phone, cpf, email, state, invalid_reason, error_code, error_message
         FROM campaign_recipients WHERE ${where} ORDER BY row_number LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    ),
    sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM campaign_recipients WHERE ${where}`, params),
  ]);
  return { rows, count: total.count };
}
