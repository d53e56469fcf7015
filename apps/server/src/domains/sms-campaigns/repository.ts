import type { Sql } from "../../db/sql.js";

export interface SmsCampaignRow {
  id: number;
  company_id: number;
  title: string;
  status: string;
  source: "WEB" | "API";
  cost_center_id: number;
  cost_center_name: string;
  template_id: number;
  template_content: string;
  matrix_variables: { template_variable: string; file_index: number }[];
  use_whitelist: boolean;
  use_blacklist_nexus: boolean;
  use_shortener_url: boolean;
  tags: string[];
  start_minute: number | null;
  end_minute: number | null;
  scheduled_at: Date | null;
  schedule_job_id: string | null;
  file_name: string;
  file_path: string;
  error_message: string;
  account_violation: string;
  count_total: number;
  count_invalid: number;
  count_triggered: number;
  count_delivered: number;
  count_not_delivered: number;
  count_processed: number;
  count_clicks: number;
  time_zone: string;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
}

const COLUMNS = `c.id, c.company_id, c.title, c.status, c.source, c.cost_center_id, cc.name AS cost_center_name, c.template_id,
  c.template_content, c.matrix_variables, c.use_whitelist, c.use_blacklist_nexus, c.use_shortener_url, c.tags, c.start_minute,
  c.end_minute, c.scheduled_at, c.schedule_job_id, c.file_name, c.file_path, c.error_message, c.account_violation, c.count_total,
  c.count_invalid, c.count_triggered, c.count_delivered, c.count_not_delivered, c.count_processed, c.count_clicks, co.time_zone,
  c.started_at, c.finished_at, c.created_at`;
const FROM = `sms_campaigns c JOIN cost_centers cc ON cc.company_id = c.company_id AND cc.id = c.cost_center_id
  JOIN companies co ON co.id = c.company_id`;

export function findSmsCampaign(sql: Sql, companyId: number, id: number): Promise<SmsCampaignRow | null> {
  return sql.maybe<SmsCampaignRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE c.company_id = $1 AND c.id = $2`, [companyId, id]);
}

/** By id alone: the engine and the notifier, which work across companies. */
export function findSmsCampaignById(sql: Sql, id: number): Promise<SmsCampaignRow | null> {
  return sql.maybe<SmsCampaignRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE c.id = $1`, [id]);
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

/** The report: newest first, with the total for the pager. */
export async function listSmsCampaigns(sql: Sql, f: ListFilter): Promise<{ rows: SmsCampaignRow[]; count: number }> {
  const where = `c.company_id = $1 AND ($2::timestamptz IS NULL OR c.created_at >= $2) AND ($3::timestamptz IS NULL OR c.created_at < $3)
    AND ($4::text IS NULL OR c.status = $4 OR ($4 = 'ACTIVE' AND c.status = 'READY')) AND ($5::int IS NULL OR c.cost_center_id = $5)`;
  const params = [f.companyId, f.start ?? null, f.end ?? null, f.status ?? null, f.costCenterId ?? null];
  const rows = await sql.many<SmsCampaignRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $6 OFFSET $7`, [
    ...params,
    f.limit,
    f.offset,
  ]);
  const { n } = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM sms_campaigns c WHERE ${where}`, params);
  return { rows, count: n };
}

/**
 * A campaign's clicks: the recipients whose link was opened at least once (the other counters are kept
 * by the rows' statement triggers, migration 0794).
 */
export async function recountSmsClicks(db: Sql, campaignId: number): Promise<void> {
  // the campaign locked first and counted in a later statement, so two clicks' counts never cross
  await db.tx(async (sql) => {
    await sql.exec("SELECT 1 FROM sms_campaigns WHERE id = $1 FOR UPDATE", [campaignId]);
    await sql.exec(
      `UPDATE sms_campaigns c SET count_clicks = (SELECT count(DISTINCT l.recipient_id)::int FROM sms_short_links l WHERE l.campaign_id = c.id AND l.clicked_at IS NOT NULL)
        WHERE c.id = $1`,
      [campaignId],
    );
  });
}

/** A page of the campaign's rows that are not sent (invalid at the analysis, or skipped), in file order, with their count. */
export async function smsInvalidRows(sql: Sql, companyId: number, campaignId: number, limit: number, offset: number) {
  const where = "company_id = $1 AND campaign_id = $2 AND state IN ('invalid', 'skipped')";
  const [rows, total] = await Promise.all([
    sql.many<{ id: number; row_number: number; phone: string; email: string; reason: string }>(
      `SELECT id::int AS id, row_number, phone, email, invalid_reason AS reason FROM sms_campaign_recipients WHERE ${where} ORDER BY row_number LIMIT $3 OFFSET $4`,
      [companyId, campaignId, limit, offset],
    ),
    sql.one<{ count: number }>(`SELECT count(*)::int AS count FROM sms_campaign_recipients WHERE ${where}`, [companyId, campaignId]),
  ]);
  return { results: rows, count: total.count };
}
