import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { parse } from "csv-parse";
import { z } from "zod";
import { CAMPAIGN_MANDATORY_COLUMNS, CAMPAIGN_MESSAGES, CAMPAIGN_ROW_REASONS, templateCsvColumns } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { normalizePhone } from "../../core/phone.js";
import type { Sql } from "../../db/sql.js";
import { CampaignFileError, decoderStream, detectEncoding } from "./encoding.js";
import { emitCampaign } from "./events.js";
import { templateComponents } from "./template-check.js";
import { blockListMatcher } from "../keywords/service.js";
import { JsonRowBuffer } from "./row-buffer.js";

export const ANALYSIS_JOB = "campaigns.analyse";
export const analysisJobPayload = z.object({ companyId: z.number().int(), campaignId: z.number().int() });
export type AnalysisJobPayload = z.infer<typeof analysisJobPayload>;

/** Recipients written per INSERT; analysed_rows advances after each (the list's progress bar). */
export const ANALYSIS_BATCH = 2000;

export interface AnalysisHooks {
  /** Called after each batch is stored (tests stop an analysis mid-way here to prove a retry restarts cleanly). */
  afterBatch?: (batch: number) => void | Promise<void>;
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

interface CampaignToAnalyse {
  status: string;
  file_path: string;
  templates: { id: number; header_format: string; components: unknown; status: string }[];
}

/**
 * The durable analysis of a campaign's CSV (spec 3 §5): ANALYZING → READY with one recipient row per
 * data line (invalid ones with their reason), or ERROR with the message. Streamed end to end: the
 * encoding is found in a first pass over the file, then csv-parse reads it in the detected encoding and
 * recipients are inserted in batches. Duplicates are marked once every row is stored, by one UPDATE
 * over the campaign's pending rows (a window per normalised number): the server holds no per-number
 * state, so its memory does not grow with the file.
 *
 * Restart after a crash: the handler first deletes the campaign's recipient rows and starts from the
 * file again, and the outcome (status, counters) is written in one statement at the end, so a retried
 * job never leaves a half campaign. A campaign no longer ANALYZING (finished by an earlier attempt) is
 * left alone and only its leftover file removed.
 */
export async function analyseCampaign(ctx: AppContext, payload: AnalysisJobPayload, hooks: AnalysisHooks = {}): Promise<void> {
  const { companyId, campaignId } = payload;
  const c = await ctx.sql.maybe<CampaignToAnalyse>(
    `SELECT c.status, c.file_path,
            COALESCE((SELECT json_agg(json_build_object('id', t.id, 'header_format', t.header_format, 'components', t.components, 'status', t.status) ORDER BY ct.position)
                        FROM campaign_templates ct JOIN whatsapp_templates t ON t.company_id = ct.company_id AND t.id = ct.template_id
                       WHERE ct.company_id = c.company_id AND ct.campaign_id = c.id), '[]') AS templates
       FROM campaigns c WHERE c.company_id = $1 AND c.id = $2`,
    [companyId, campaignId],
  );
  if (!c) return;
  if (c.status !== "ANALYZING") {
    if (c.file_path) await removeFile(ctx, c.file_path, payload);
    return;
  }
  await ctx.sql.exec("DELETE FROM campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
  await ctx.sql.exec("UPDATE campaigns SET analysed_rows = 0, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, campaignId]);

  let outcome: { total: number; invalid: number; encoding: string };
  try {
    if (!c.file_path) throw new CampaignFileError(CAMPAIGN_MESSAGES.fileRequired);
    outcome = await readRecipients(ctx, payload, c, hooks);
  } catch (err) {
    if (!(err instanceof CampaignFileError)) throw err; // the database or the disk failed: pg-boss retries
    await ctx.sql.tx(async (tx) => {
      await tx.exec("DELETE FROM campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
      await tx.exec(
        `UPDATE campaigns SET status = 'ERROR', error_message = $3, count_total = 0, count_invalid = 0, analysed_rows = 0,
                file_path = '', updated_at = now()
          WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
        [companyId, campaignId, err.message],
      );
    });
    if (c.file_path) await removeFile(ctx, c.file_path, payload);
    await emitCampaign(ctx, companyId, campaignId, "update");
    return;
  }
  await ctx.sql.exec(
    `UPDATE campaigns SET status = 'READY', count_total = $3, count_invalid = $4, analysed_rows = $3, encoding = $5, error_message = '',
            file_path = '', updated_at = now()
      WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING'`,
    [companyId, campaignId, outcome.total, outcome.invalid, outcome.encoding],
  );
  await removeFile(ctx, c.file_path, payload);
  await emitCampaign(ctx, companyId, campaignId, "update");
}

/** What the list shows when the analysis failed on every attempt (the database or the disk, not the file). */
export const ANALYSIS_GAVE_UP = "Não foi possível analisar o arquivo (falha interna). Crie a campanha novamente.";

/**
 * The analysis job's last attempt failed (its retries are used up: the database or the disk kept
 * failing): the campaign ends in ERROR with a message instead of showing 'Em Análise' forever.
 */
export async function analysisGaveUp(ctx: AppContext, payload: AnalysisJobPayload): Promise<void> {
  const { companyId, campaignId } = payload;
  const file = await ctx.sql.tx(async (tx) => {
    const c = await tx.maybe<{ file_path: string }>("SELECT file_path FROM campaigns WHERE company_id = $1 AND id = $2 AND status = 'ANALYZING' FOR UPDATE", [
      companyId,
      campaignId,
    ]);
    if (!c) return null;
    await tx.exec("DELETE FROM campaign_recipients WHERE company_id = $1 AND campaign_id = $2", [companyId, campaignId]);
    await tx.exec(
      `UPDATE campaigns SET status = 'ERROR', error_message = $3, count_total = 0, count_invalid = 0, analysed_rows = 0, file_path = '', updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [companyId, campaignId, ANALYSIS_GAVE_UP],
    );
    return c;
  });
  if (!file) return;
  if (file.file_path) await removeFile(ctx, file.file_path, payload);
  await emitCampaign(ctx, companyId, campaignId, "update");
}

async function removeFile(ctx: AppContext, file: string, payload: AnalysisJobPayload): Promise<void> {
  await rm(file, { force: true }).catch((err: unknown) => ctx.log.error({ err, ...payload, file }, "could not delete an analysed campaign file"));
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

const header = (cell: string) => cell.replace(/^\uFEFF/, "").trim().toLowerCase();

async function readRecipients(ctx: AppContext, payload: AnalysisJobPayload, c: CampaignToAnalyse, hooks: AnalysisHooks) {
  const { companyId, campaignId } = payload;
  const encoding = await detectEncoding(c.file_path);
  const parser = parse({ delimiter: ";", relax_column_count: true, relax_quotes: true, skip_empty_lines: true, skip_records_with_empty_values: true, bom: true });
  const reading = pipeline(createReadStream(c.file_path, { highWaterMark: 256 * 1024 }), decoderStream(encoding), parser);

  // the CSV columns each template fills (media URL, header and body variables): the shared rule
  const templates = c.templates.map((t) => ({
    id: t.id,
    columns: templateCsvColumns({ status: t.status, headerFormat: t.header_format, components: templateComponents(t.components) }),
  }));
  const needed = templates.reduce((m, t) => Math.max(m, t.columns), 0);
  // the company's block list (Keywords), while it is on: a row whose variables carry a listed word is not sent
  const blocked = await blockListMatcher(ctx.sql, companyId);
  let columns: { phone: number; cpf: number; email: number; vars: number[] } | null = null;
  const batch = new JsonRowBuffer();
  let batches = 0;
  let total = 0;
  let invalid = 0;

  const flush = async () => {
    if (batch.count === 0) return;
    await insertBatch(ctx.sql, companyId, campaignId, batch.take());
    await ctx.sql.exec("UPDATE campaigns SET analysed_rows = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, campaignId, total]);
    batches += 1;
    await hooks.afterBatch?.(batches);
  };

  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        const names = record.map(header);
        if (names.length < 2) throw new CampaignFileError(CAMPAIGN_MESSAGES.separator);
        const missing = CAMPAIGN_MANDATORY_COLUMNS.filter((h) => !names.includes(h));
        if (missing.length) throw new CampaignFileError(CAMPAIGN_MESSAGES.missingHeaders(missing));
        const phone = names.indexOf("telefone");
        const cpf = names.indexOf("cpf");
        const email = names.indexOf("email");
        const vars = names.map((_, i) => i).filter((i) => i !== phone && i !== cpf && i !== email);
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
      if (batch.count >= ANALYSIS_BATCH) await flush();
    }
    await reading;
  } catch (err) {
    parser.destroy();
    await reading.catch((pipeErr: unknown) => {
      // the reader stops because the parser was closed on purpose; only other failures are worth a line
      if (!(err instanceof CampaignFileError)) ctx.log.warn({ err: pipeErr, ...payload }, "campaign file reader stopped");
    });
    if (err instanceof CampaignFileError) throw err;
    if ((err as { code?: string }).code?.startsWith("CSV_")) throw new CampaignFileError(CAMPAIGN_MESSAGES.unreadable);
    throw err;
  }
  if (!columns) throw new CampaignFileError(CAMPAIGN_MESSAGES.separator);
  await flush();
  if (total === 0) throw new CampaignFileError(CAMPAIGN_MESSAGES.emptyFile);
  invalid += await markDuplicates(ctx.sql, companyId, campaignId);
  return { total, invalid, encoding };
}
