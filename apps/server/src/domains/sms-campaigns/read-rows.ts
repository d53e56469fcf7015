import { CAMPAIGN_MANDATORY_COLUMNS, CAMPAIGN_MESSAGES, SMS_ROW_REASONS, smsTemplateVariables } from "@atende/shared";
import { normalizePhone } from "../../core/phone.js";
import type { Sql } from "../../db/sql.js";
import { campaignCsvReader, CampaignFileError, csvReadDone, csvReadFailed, detectEncoding, fileColumns } from "../campaigns/encoding.js";
import { optedOutAmong } from "../opt-outs/repository.js";

type Payload = { companyId: number; campaignId: number };

const BATCH = 2000;

export interface Campaign {
  status: string;
  file_path: string;
  template_content: string;
  matrix_variables: { template_variable: string; file_index: number }[];
  use_whitelist: boolean;
  use_blacklist_nexus: boolean;
  scheduled_at: Date | null;
}

interface Row {
  n: number;
  phone: string;
  cpf: string;
  email: string;
  cells: string[];
  reason: string;
}

/** Marks the rows of this batch that the company's lists exclude (opt-out always; whitelist and blacklist when asked). */
async function applyLists(sql: Sql, companyId: number, c: Campaign, rows: Row[]): Promise<void> {
  const phones = rows.filter((r) => !r.reason).map((r) => r.phone);
  if (!phones.length) return;
  const optedOut = await optedOutAmong(sql, companyId, "sms", phones);
  const contacts = c.use_whitelist
    ? new Set((await sql.many<{ number: string }>("SELECT number FROM contacts WHERE company_id = $1 AND number = ANY($2::text[])", [companyId, phones])).map((r) => r.number))
    : null;
  const blacklisted = c.use_blacklist_nexus
    ? new Set(
        (
          await sql.many<{ phone: string }>("SELECT DISTINCT phone FROM sms_campaign_recipients WHERE company_id = $1 AND error_permanent AND phone = ANY($2::text[])", [
            companyId,
            phones,
          ])
        ).map((r) => r.phone),
      )
    : null;
  for (const r of rows) {
    if (r.reason) continue;
    if (optedOut.has(r.phone)) r.reason = SMS_ROW_REASONS.optedOut;
    else if (contacts && !contacts.has(r.phone)) r.reason = SMS_ROW_REASONS.notWhitelisted;
    else if (blacklisted?.has(r.phone)) r.reason = SMS_ROW_REASONS.blacklisted;
  }
}

async function insertRows(sql: Sql, companyId: number, campaignId: number, rows: Row[]): Promise<void> {
  await sql.exec(
    `INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, cpf, email, variables, state, invalid_reason)
     SELECT $1, $2, r.n, r.phone, r.cpf, r.email,
            ARRAY(SELECT v.value FROM json_array_elements_text(r.cells::json) WITH ORDINALITY AS v(value, i) ORDER BY v.i),
            CASE WHEN r.reason = '' THEN 'pending' ELSE 'invalid' END, r.reason
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS r(n, phone, cpf, email, cells, reason)`,
    [
      companyId,
      campaignId,
      rows.map((r) => r.n),
      rows.map((r) => r.phone),
      rows.map((r) => r.cpf),
      rows.map((r) => r.email),
      rows.map((r) => JSON.stringify(r.cells)),
      rows.map((r) => r.reason),
    ],
  );
}

export interface SmsAnalysisInput {
  payload: Payload;
  campaign: Campaign;
}

/** Reads the file and stores its rows (in the analysis's worker thread: analysis-worker.ts). */
export async function readSmsRows(sql: Sql, warn: (err: unknown, msg: string) => void, { payload: p, campaign: c }: SmsAnalysisInput): Promise<{ encoding: string }> {
  if (!c.file_path) throw new CampaignFileError(CAMPAIGN_MESSAGES.fileRequired);
  const encoding = await detectEncoding(c.file_path);
  const csv = campaignCsvReader(c.file_path, encoding);
  const { parser } = csv;
  const variables = smsTemplateVariables(c.template_content).length;
  const lastColumn = Math.max(-1, ...c.matrix_variables.map((m) => m.file_index));
  let columns: { phone: number; cpf: number; email: number } | null = null;
  let batch: Row[] = [];
  let total = 0;
  const flush = async () => {
    if (!batch.length) return;
    await applyLists(sql, p.companyId, c, batch);
    await insertRows(sql, p.companyId, p.campaignId, batch);
    batch = [];
  };
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        const { names, phone, cpf, email } = fileColumns(record);
        const variableColumns = names.length - CAMPAIGN_MANDATORY_COLUMNS.length;
        // spec 3 §5: at least as many variable columns (after the first three) as the template has variables
        if (variableColumns < variables || lastColumn >= names.length) throw new CampaignFileError(CAMPAIGN_MESSAGES.variableColumns(variableColumns, variables));
        columns = { phone, cpf, email };
        continue;
      }
      total += 1;
      const raw = (record[columns.phone] ?? "").trim();
      const phone = raw ? normalizePhone(raw) : null;
      batch.push({
        n: total,
        phone: phone ?? raw,
        cpf: (record[columns.cpf] ?? "").trim(),
        email: (record[columns.email] ?? "").trim(),
        cells: record.map((v) => v.trim()),
        reason: phone ? "" : SMS_ROW_REASONS.invalidPhone,
      });
      if (batch.length >= BATCH) await flush();
    }
    await csvReadDone(csv);
  } catch (err) {
    await csvReadFailed(err, csv, warn, "SMS campaign");
  }
  if (!columns) throw new CampaignFileError(CAMPAIGN_MESSAGES.separator);
  await flush();
  if (total === 0) throw new CampaignFileError(CAMPAIGN_MESSAGES.emptyFile);
  // a number already on an earlier valid row: later rows with it become invalid, naming the first
  await sql.exec(
    `UPDATE sms_campaign_recipients r SET state = 'invalid', invalid_reason = replace($3, '{first}', d.first::text)
       FROM (SELECT id, row_number, min(row_number) OVER (PARTITION BY phone) AS first
               FROM sms_campaign_recipients WHERE company_id = $1 AND campaign_id = $2 AND state = 'pending') d
      WHERE r.id = d.id AND d.row_number > d.first`,
    [p.companyId, p.campaignId, SMS_ROW_REASONS.duplicate("{first}")],
  );
  return { encoding };
}
