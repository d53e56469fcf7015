import { CAMPAIGN_MESSAGES, EMAIL_CAMPAIGN_MESSAGES, EMAIL_ROW_REASONS, isEmailAddress } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { campaignCsvReader, CampaignFileError, csvReadDone, csvReadFailed, detectEncoding, fileColumns } from "../campaigns/encoding.js";
import { templatePlaceholders } from "../email-tracking/render.js";
import { blockListMatcher } from "../keywords/service.js";
import { optedOutAmong } from "../opt-outs/repository.js";

const BATCH = 2000;

interface Batch {
  rowNumber: number[];
  email: string[];
  phone: string[];
  cpf: string[];
  variables: string[];
  state: string[];
  reason: string[];
}
const emptyBatch = (): Batch => ({ rowNumber: [], email: [], phone: [], cpf: [], variables: [], state: [], reason: [] });

async function insertBatch(sql: Sql, companyId: number, campaignId: number, b: Batch): Promise<void> {
  await sql.exec(
    `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, phone, cpf, variables, state, invalid_reason)
     SELECT $1, $2, r.n, r.email, r.phone, r.cpf,
            ARRAY(SELECT v.value FROM json_array_elements_text(r.vars::json) WITH ORDINALITY AS v(value, i) ORDER BY v.i),
            r.state, r.reason
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS r(n, email, phone, cpf, vars, state, reason)`,
    [companyId, campaignId, b.rowNumber, b.email, b.phone, b.cpf, b.variables, b.state, b.reason],
  );
}

/** A later valid row with an address (case-insensitive) already on an earlier one becomes invalid, naming the first. */
function markDuplicates(sql: Sql, companyId: number, campaignId: number): Promise<number> {
  return sql.exec(
    `UPDATE email_campaign_recipients r SET state = 'invalid', invalid_reason = replace($3, '{first}', d.first::text)
       FROM (SELECT id, row_number, min(row_number) OVER (PARTITION BY lower(email)) AS first
               FROM email_campaign_recipients WHERE company_id = $1 AND campaign_id = $2 AND state = 'pending') d
      WHERE r.id = d.id AND d.row_number > d.first`,
    [companyId, campaignId, EMAIL_ROW_REASONS.duplicate("{first}")],
  );
}

export interface EmailAnalysisInput {
  /** The analysis job's payload (analysis.ts `emailAnalysisPayload`). */
  payload: { companyId: number; campaignId: number };
  campaign: { file_path: string; subject: string; html: string };
}
export interface EmailAnalysisOutcome {
  total: number;
  invalid: number;
  encoding: string;
  variables: string[];
}

/** Reads the file and stores its rows (in the analysis's worker thread: analysis-worker.ts). */
export async function readEmailRecipients(sql: Sql, warn: (err: unknown, msg: string) => void, { payload, campaign: c }: EmailAnalysisInput): Promise<EmailAnalysisOutcome> {
  const { companyId, campaignId } = payload;
  const encoding = await detectEncoding(c.file_path);
  const needed = templatePlaceholders(c.subject, c.html);
  const blocked = await blockListMatcher(sql, companyId);
  // started last: from here on every way out of this function awaits the reader's end
  const csv = campaignCsvReader(c.file_path, encoding);
  const { parser } = csv;
  let columns: { phone: number; cpf: number; email: number; vars: number[]; names: string[] } | null = null;
  let batch = emptyBatch();
  let total = 0;
  let invalid = 0;

  const flush = async () => {
    if (batch.rowNumber.length === 0) return;
    // the company's opt-out list, one query per batch: an address that unsubscribed is never written to again
    const candidates = batch.email.filter((_, i) => batch.state[i] === "pending");
    const optedOut = await optedOutAmong(sql, companyId, "email", candidates);
    if (optedOut.size) {
      batch.email.forEach((e, i) => {
        if (batch.state[i] === "pending" && optedOut.has(e.toLowerCase())) {
          batch.state[i] = "invalid";
          batch.reason[i] = EMAIL_ROW_REASONS.optedOut;
          invalid += 1;
        }
      });
    }
    await insertBatch(sql, companyId, campaignId, batch);
    batch = emptyBatch();
    await sql.exec("UPDATE email_campaigns SET analysed_rows = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, campaignId, total]);
  };

  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        const { names, phone, cpf, email, vars } = fileColumns(record);
        const varNames = vars.map((i) => names[i]!);
        const absent = needed.filter((n) => !varNames.includes(n));
        if (absent.length) throw new CampaignFileError(EMAIL_CAMPAIGN_MESSAGES.templateColumns(absent));
        columns = { phone, cpf, email, vars, names: varNames };
        continue;
      }
      total += 1;
      const email = (record[columns.email] ?? "").trim();
      const variables = columns.vars.map((i) => (record[i] ?? "").trim());
      let reason = "";
      if (!isEmailAddress(email)) reason = EMAIL_ROW_REASONS.invalidEmail;
      else {
        const words = blocked ? blocked(variables.join("\n")) : [];
        if (words.length) reason = EMAIL_ROW_REASONS.blockedWords(words);
      }
      if (reason) invalid += 1;
      batch.rowNumber.push(total);
      batch.email.push(email);
      batch.phone.push((record[columns.phone] ?? "").trim());
      batch.cpf.push((record[columns.cpf] ?? "").trim());
      batch.variables.push(JSON.stringify(variables));
      batch.state.push(reason ? "invalid" : "pending");
      batch.reason.push(reason);
      if (batch.rowNumber.length >= BATCH) await flush();
    }
    await csvReadDone(csv);
  } catch (err) {
    await csvReadFailed(err, csv, warn, "e-mail campaign");
  }
  if (!columns) throw new CampaignFileError(CAMPAIGN_MESSAGES.separator);
  await flush();
  if (total === 0) throw new CampaignFileError(CAMPAIGN_MESSAGES.emptyFile);
  invalid += await markDuplicates(sql, companyId, campaignId);
  return { total, invalid, encoding, variables: columns.names };
}
