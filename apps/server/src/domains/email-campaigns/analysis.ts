import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { parse } from "csv-parse";
import { z } from "zod";
import { CAMPAIGN_MESSAGES, EMAIL_CAMPAIGN_MESSAGES, EMAIL_ROW_REASONS, isEmailAddress } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";
import { CampaignFileError, decoderStream, detectEncoding, fileColumns } from "../campaigns/encoding.js";
import { templatePlaceholders } from "../email-tracking/render.js";
import { blockListMatcher } from "../keywords/service.js";
import { optedOutAmong } from "../opt-outs/repository.js";
import { skipUnsent } from "./actions.js";
import { emitEmailCampaign } from "./events.js";

export const EMAIL_ANALYSIS_JOB = "email-campaigns.analyse";
export const emailAnalysisPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int() });
export type EmailAnalysisPayload = z.infer<typeof emailAnalysisPayload>;

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

/**
 * The durable analysis of an e-mail campaign's CSV (spec 3 §5), the WhatsApp analysis' shape: the
 * encoding in a first streamed pass (the shared `detectEncoding`), then csv-parse (`;`) with the headers
 * telefone, cpf, email; every other column is a variable and the template's {{placeholders}} must all
 * be among them. Each row: the address' syntax, the block list on its variables, the company's opt-out
 * list (one query per 2,000 rows); duplicates by one UPDATE at the end. ANALYZING → ACTIVE (with the
 * counts) or ERROR (the message), one guarded statement. A retried attempt starts over (rows deleted
 * first); a bad file is an outcome, a database or disk failure is thrown for pg-boss to retry.
 */
export async function analyseEmailCampaign(ctx: AppContext, payload: EmailAnalysisPayload): Promise<void> {
  const { companyId, campaignId } = payload;
  const c = await ctx.sql.maybe<{ status: string; file_path: string; subject: string; html: string }>(
    "SELECT status, file_path, subject, html FROM email_campaigns WHERE company_id = $1 AND id = $2",
    [companyId, campaignId],
  );
  if (!c) return;
  if (c.status !== "ANALYZING") {
    if (c.file_path) await removeFile(ctx, c.file_path, payload);
    return;
  }
  await ctx.sql.exec("DELETE FROM email_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
  let outcome: { total: number; invalid: number; encoding: string; variables: string[] };
  try {
    if (!c.file_path) throw new CampaignFileError(CAMPAIGN_MESSAGES.fileRequired);
    outcome = await readRecipients(ctx, payload, c);
  } catch (err) {
    if (!(err instanceof CampaignFileError)) throw err;
    await ctx.sql.tx(async (tx) => {
      await tx.exec("DELETE FROM email_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
      await tx.exec(
        `UPDATE email_campaigns SET status = 'ERROR', error_message = $3, count_total = 0, count_invalid = 0, analysed_rows = 0, file_path = '', updated_at = now()
          WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
        [companyId, campaignId, err.message],
      );
    });
    if (c.file_path) await removeFile(ctx, c.file_path, payload);
    await emitEmailCampaign(ctx, companyId, campaignId, "update");
    return;
  }
  const activated = await ctx.sql.exec(
    `UPDATE email_campaigns SET status = 'ACTIVE', count_total = $3, count_invalid = $4, analysed_rows = $3, encoding = $5, variables = $6,
            error_message = '', file_path = '', updated_at = now()
      WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
    [companyId, campaignId, outcome.total, outcome.invalid, outcome.encoding, outcome.variables],
  );
  if (!activated) {
    // cancelled while the file was read: the rows are listed, none is ever sent
    await ctx.sql.tx(async (tx) => {
      const now = await tx.maybe<{ status: string }>("SELECT status FROM email_campaigns WHERE company_id = $1 AND id = $2 FOR UPDATE", [companyId, campaignId]);
      if (now?.status !== "CANCELLED") return;
      await tx.exec("UPDATE email_campaigns SET count_total = $3, count_invalid = $4, file_path = '' WHERE company_id = $1 AND id = $2", [
        companyId,
        campaignId,
        outcome.total,
        outcome.invalid,
      ]);
      await skipUnsent(tx, companyId, campaignId);
    });
  }
  await removeFile(ctx, c.file_path, payload);
  await emitEmailCampaign(ctx, companyId, campaignId, "update");
}

async function removeFile(ctx: AppContext, file: string, payload: EmailAnalysisPayload): Promise<void> {
  await rm(file, { force: true }).catch((err: unknown) => ctx.log.error({ err, ...payload, file }, "could not delete an analysed e-mail campaign file"));
}


async function readRecipients(ctx: AppContext, payload: EmailAnalysisPayload, c: { file_path: string; subject: string; html: string }) {
  const { companyId, campaignId } = payload;
  const encoding = await detectEncoding(c.file_path);
  const parser = parse({ delimiter: ";", relax_column_count: true, relax_quotes: true, skip_empty_lines: true, skip_records_with_empty_values: true, bom: true });
  const reading = pipeline(createReadStream(c.file_path, { highWaterMark: 256 * 1024 }), decoderStream(encoding), parser);
  const needed = templatePlaceholders(c.subject, c.html);
  const blocked = await blockListMatcher(ctx.sql, companyId);
  let columns: { phone: number; cpf: number; email: number; vars: number[]; names: string[] } | null = null;
  let batch = emptyBatch();
  let total = 0;
  let invalid = 0;

  const flush = async () => {
    if (batch.rowNumber.length === 0) return;
    // the company's opt-out list, one query per batch: an address that unsubscribed is never written to again
    const candidates = batch.email.filter((_, i) => batch.state[i] === "pending");
    const optedOut = await optedOutAmong(ctx.sql, companyId, "email", candidates);
    if (optedOut.size) {
      batch.email.forEach((e, i) => {
        if (batch.state[i] === "pending" && optedOut.has(e.toLowerCase())) {
          batch.state[i] = "invalid";
          batch.reason[i] = EMAIL_ROW_REASONS.optedOut;
          invalid += 1;
        }
      });
    }
    await insertBatch(ctx.sql, companyId, campaignId, batch);
    batch = emptyBatch();
    await ctx.sql.exec("UPDATE email_campaigns SET analysed_rows = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, campaignId, total]);
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
    await reading;
  } catch (err) {
    parser.destroy();
    await reading.catch((pipeErr: unknown) => {
      if (!(err instanceof CampaignFileError)) ctx.log.warn({ err: pipeErr, ...payload }, "e-mail campaign file reader stopped");
    });
    if (err instanceof CampaignFileError) throw err;
    if ((err as { code?: string }).code?.startsWith("CSV_")) throw new CampaignFileError(CAMPAIGN_MESSAGES.unreadable);
    throw err;
  }
  if (!columns) throw new CampaignFileError(CAMPAIGN_MESSAGES.separator);
  await flush();
  if (total === 0) throw new CampaignFileError(CAMPAIGN_MESSAGES.emptyFile);
  invalid += await markDuplicates(ctx.sql, companyId, campaignId);
  return { total, invalid, encoding, variables: columns.names };
}
