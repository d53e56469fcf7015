import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { parse } from "csv-parse";
import { z } from "zod";
import { CAMPAIGN_MANDATORY_COLUMNS, CAMPAIGN_MESSAGES, SMS_ROW_REASONS, smsTemplateVariables } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { normalizePhone } from "../../core/phone.js";
import type { Sql } from "../../db/sql.js";
import { CampaignFileError, decoderStream, detectEncoding, fileColumns } from "../campaigns/encoding.js";
import { optedOutAmong } from "../opt-outs/repository.js";
import { smsNotifier } from "./events.js";
import { queueSmsScheduledStart } from "./schedule.js";

export const SMS_ANALYSIS_JOB = "sms-campaigns.analyse";
export const smsAnalysisPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int() });
type Payload = z.infer<typeof smsAnalysisPayload>;

const BATCH = 2000;

interface Campaign {
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

/**
 * The durable analysis of an SMS campaign's CSV (spec 3 §5): ANALYZING → READY (or SCHEDULED when a
 * schedule date is set: its timer job is queued in the same transaction) with one recipient row per
 * data line, or ERROR with the message. Streamed like the WhatsApp analysis (domains/campaigns), with
 * the same encoding rules. A row is invalid, with its reason, when its number cannot be a phone, is
 * on the company's opt-out list, is not among the company's contacts (use_whitelist), has failed
 * permanently in an earlier campaign (use_blacklist_nexus), or repeats an earlier row's number.
 * A retried job starts again from the file (rows deleted first).
 */
export async function analyseSmsCampaign(ctx: AppContext, p: Payload): Promise<void> {
  const c = await ctx.sql.maybe<Campaign>(
    `SELECT status, file_path, template_content, matrix_variables, use_whitelist, use_blacklist_nexus, scheduled_at
       FROM sms_campaigns WHERE company_id = $1 AND id = $2`,
    [p.companyId, p.campaignId],
  );
  if (!c) return;
  if (c.status !== "ANALYZING") {
    if (c.file_path) await removeFile(ctx, c.file_path, p);
    return;
  }
  await ctx.sql.exec("DELETE FROM sms_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [p.companyId, p.campaignId]);
  let outcome: { encoding: string };
  try {
    outcome = await readRows(ctx, p, c);
  } catch (err) {
    if (!(err instanceof CampaignFileError)) throw err; // database or disk: pg-boss retries
    await ctx.sql.tx(async (tx) => {
      await tx.exec("DELETE FROM sms_campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [p.companyId, p.campaignId]);
      await tx.exec(
        `UPDATE sms_campaigns SET status = 'ERROR', error_message = $3, file_path = '', updated_at = now() WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
        [p.companyId, p.campaignId, err.message],
      );
    });
    await removeFile(ctx, c.file_path, p);
    await smsNotifier(ctx).now(p.campaignId);
    return;
  }
  await ctx.sql.tx(async (tx) => {
    const scheduled = c.scheduled_at !== null;
    const n = await tx.exec(
      `UPDATE sms_campaigns SET status = $3, encoding = $4, error_message = '', file_path = '', updated_at = now()
        WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
      [p.companyId, p.campaignId, scheduled ? "SCHEDULED" : "READY", outcome.encoding],
    );
    if (n && scheduled) await queueSmsScheduledStart(ctx, tx, p.companyId, p.campaignId, c.scheduled_at!);
  });
  await removeFile(ctx, c.file_path, p);
  await smsNotifier(ctx).now(p.campaignId);
}

async function removeFile(ctx: AppContext, file: string, p: Payload): Promise<void> {
  if (!file) return;
  await rm(file, { force: true }).catch((err: unknown) => ctx.log.error({ err, ...p, file }, "could not delete an analysed SMS campaign file"));
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


async function readRows(ctx: AppContext, p: Payload, c: Campaign): Promise<{ encoding: string }> {
  if (!c.file_path) throw new CampaignFileError(CAMPAIGN_MESSAGES.fileRequired);
  const encoding = await detectEncoding(c.file_path);
  const parser = parse({ delimiter: ";", relax_column_count: true, relax_quotes: true, skip_empty_lines: true, skip_records_with_empty_values: true, bom: true });
  const reading = pipeline(createReadStream(c.file_path, { highWaterMark: 256 * 1024 }), decoderStream(encoding), parser);
  const variables = smsTemplateVariables(c.template_content).length;
  const lastColumn = Math.max(-1, ...c.matrix_variables.map((m) => m.file_index));
  let columns: { phone: number; cpf: number; email: number } | null = null;
  let batch: Row[] = [];
  let total = 0;
  const flush = async () => {
    if (!batch.length) return;
    await applyLists(ctx.sql, p.companyId, c, batch);
    await insertRows(ctx.sql, p.companyId, p.campaignId, batch);
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
    await reading;
  } catch (err) {
    parser.destroy();
    await reading.catch((pipeErr: unknown) => {
      if (!(err instanceof CampaignFileError)) ctx.log.warn({ err: pipeErr, ...p }, "SMS campaign file reader stopped");
    });
    if (err instanceof CampaignFileError) throw err;
    if ((err as { code?: string }).code?.startsWith("CSV_")) throw new CampaignFileError(CAMPAIGN_MESSAGES.unreadable);
    throw err;
  }
  if (!columns) throw new CampaignFileError(CAMPAIGN_MESSAGES.separator);
  await flush();
  if (total === 0) throw new CampaignFileError(CAMPAIGN_MESSAGES.emptyFile);
  // a number already on an earlier valid row: later rows with it become invalid, naming the first
  await ctx.sql.exec(
    `UPDATE sms_campaign_recipients r SET state = 'invalid', invalid_reason = replace($3, '{first}', d.first::text)
       FROM (SELECT id, row_number, min(row_number) OVER (PARTITION BY phone) AS first
               FROM sms_campaign_recipients WHERE company_id = $1 AND campaign_id = $2 AND state = 'pending') d
      WHERE r.id = d.id AND d.row_number > d.first`,
    [p.companyId, p.campaignId, SMS_ROW_REASONS.duplicate("{first}")],
  );
  return { encoding };
}
