import { CAMPAIGN_MESSAGES, CAMPAIGN_ROW_REASONS, templateCsvColumns } from "@atende/shared";
import { normalizePhone } from "../../core/phone.js";
import type { Sql } from "../../db/sql.js";
import { blockListMatcher } from "../keywords/service.js";
import { campaignCsvReader, CampaignFileError, csvReadDone, csvReadFailed, detectEncoding, fileColumns } from "./encoding.js";
import { JsonRowBuffer } from "./row-buffer.js";
import { templateComponents } from "./template-check.js";

/** Recipients written per INSERT; analysed_rows advances after each (the list's progress bar). */
export const ANALYSIS_BATCH = 2000;
/**
 * A batch is written sooner when its JSON text reaches this size (only files with long rows get
 * there): the worker thread never makes one large string, the allocation a capped heap cannot always
 * refuse gracefully (nodejs/node#47224: one can abort the whole process instead of the thread).
 */
export const ANALYSIS_BATCH_MAX_BYTES = 4 * 1024 * 1024;

/** What the analysis reads: the campaign, its file and its templates in rotation order (plain data: it crosses to the worker thread). */
export interface RecipientsInput {
  companyId: number;
  campaignId: number;
  filePath: string;
  templates: { id: number; header_format: string; components: unknown; status: string }[];
}

export interface RecipientsOutcome {
  total: number;
  invalid: number;
  encoding: string;
}

export interface RecipientsEvents {
  /** After each batch is stored and the progress written; the next batch waits for it. */
  afterBatch(batches: number, total: number): Promise<void>;
  /** A failure worth a line that does not stop the analysis. */
  warn(err: unknown, msg: string): void;
}

/**
 * A batch's rows as a JSON array of [row number, phone, cpf, email, [variables], state, reason,
 * template id], inserted in one statement.
 */
async function insertBatch(sql: Sql, companyId: number, campaignId: number, rows: string): Promise<void> {
  await sql.exec(
    `INSERT INTO campaign_recipients (company_id, campaign_id, row_number, phone, cpf, email, variables, state, invalid_reason, template_id)
     SELECT $1, $2, (e->>0)::int, e->>1, e->>2, e->>3,
            ARRAY(SELECT v.value FROM json_array_elements_text(e->4) WITH ORDINALITY AS v(value, i) ORDER BY v.i),
            e->>5, e->>6, (e->>7)::int
       FROM json_array_elements($3::json) AS e`,
    [companyId, campaignId, rows],
  );
}

/**
 * A number already on an earlier valid row: every later pending row with it becomes invalid, naming
 * the first row (CAMPAIGN_ROW_REASONS.duplicate with the row filled in by the database).
 */
async function markDuplicates(sql: Sql, companyId: number, campaignId: number): Promise<number> {
  return sql.exec(
    `UPDATE campaign_recipients r SET state = 'invalid', invalid_reason = replace($3, '{first}', d.first::text)
       FROM (SELECT id, row_number, min(row_number) OVER (PARTITION BY phone) AS first
               FROM campaign_recipients WHERE company_id = $1 AND campaign_id = $2 AND state = 'pending') d
      WHERE r.id = d.id AND d.row_number > d.first`,
    [companyId, campaignId, CAMPAIGN_ROW_REASONS.duplicate("{first}")],
  );
}


/**
 * The CSV's rows as campaign recipients (spec 3 §5), run in the analysis's worker thread
 * (analysis-worker.ts) with a connection of its own: the encoding is found in a first pass over the
 * file, then csv-parse reads it in that encoding and recipients are inserted in batches; duplicates
 * are marked once every row is stored, by one UPDATE (a window per normalised number), so nothing
 * held here grows with the file. A problem of the file throws CampaignFileError with the spec's
 * message; anything else (the database, the disk) throws as it is.
 */
export async function readRecipients(sql: Sql, input: RecipientsInput, events: RecipientsEvents): Promise<RecipientsOutcome> {
  const { companyId, campaignId } = input;
  const encoding = await detectEncoding(input.filePath);
  // the CSV columns each template fills (media URL, header and body variables): the shared rule
  const templates = input.templates.map((t) => ({
    id: t.id,
    columns: templateCsvColumns({ status: t.status, headerFormat: t.header_format, components: templateComponents(t.components) }),
  }));
  const needed = templates.reduce((m, t) => Math.max(m, t.columns), 0);
  // the company's block list (Keywords), while it is on: a row whose variables carry a listed word is not sent
  const blocked = await blockListMatcher(sql, companyId);
  // started last: from here on every way out of this function awaits the reader's end
  const csv = campaignCsvReader(input.filePath, encoding);
  const { parser } = csv;

  let columns: { phone: number; cpf: number; email: number; vars: number[] } | null = null;
  const batch = new JsonRowBuffer();
  let batches = 0;
  let total = 0;
  let invalid = 0;

  const flush = async () => {
    if (batch.count === 0) return;
    await insertBatch(sql, companyId, campaignId, batch.take());
    await sql.exec("UPDATE campaigns SET analysed_rows = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, campaignId, total]);
    batches += 1;
    await events.afterBatch(batches, total);
  };

  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        const { phone, cpf, email, vars } = fileColumns(record);
        if (vars.length < needed) throw new CampaignFileError(CAMPAIGN_MESSAGES.variableColumns(vars.length, needed));
        columns = { phone, cpf, email, vars };
        continue;
      }
      total += 1;
      const rawPhone = (record[columns.phone] ?? "").trim();
      const variables = columns.vars.map((i) => (record[i] ?? "").trim());
      const template = templates.length ? templates[(total - 1) % templates.length]! : null;
      let reason = "";
      const phone = rawPhone ? normalizePhone(rawPhone) : null;
      if (!phone) reason = CAMPAIGN_ROW_REASONS.invalidPhone;
      else {
        if (template && template.columns > 0) {
          const filled = variables.slice(0, template.columns).filter((v) => v !== "").length;
          if (filled < template.columns) reason = CAMPAIGN_ROW_REASONS.fewVariables(filled, template.columns);
        }
        const words = blocked && !reason ? blocked(variables.join("\n")) : [];
        if (words.length) reason = CAMPAIGN_ROW_REASONS.blockedWords(words);
      }
      if (reason) invalid += 1;
      batch.push([
        total,
        phone ?? rawPhone,
        (record[columns.cpf] ?? "").trim(),
        (record[columns.email] ?? "").trim(),
        variables,
        reason ? "invalid" : "pending",
        reason,
        template?.id ?? null,
      ]);
      if (batch.count >= ANALYSIS_BATCH || batch.bytes >= ANALYSIS_BATCH_MAX_BYTES) await flush();
    }
    await csvReadDone(csv);
  } catch (err) {
    await csvReadFailed(err, csv, (e: unknown, msg: string) => events.warn(e, msg), "campaign");
  }
  if (!columns) throw new CampaignFileError(CAMPAIGN_MESSAGES.separator);
  await flush();
  if (total === 0) throw new CampaignFileError(CAMPAIGN_MESSAGES.emptyFile);
  invalid += await markDuplicates(sql, companyId, campaignId);
  return { total, invalid, encoding };
}
