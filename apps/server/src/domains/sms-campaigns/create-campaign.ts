import { parseSmsHour, SMS_CAMPAIGN_MESSAGES as M, smsTemplateVariables, type ErrorCode, type smsCampaignCreateInput } from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { scheduleInstant } from "../campaigns/schedule.js";
import { assertNoBlockedWords } from "../keywords/service.js";
import { findSmsTemplate } from "../message-templates/repository.js";
import { smsNotifier } from "./events.js";
import { presentSmsCampaign } from "./presenter.js";
import { findSmsCampaign } from "./repository.js";

type Input = z.output<typeof smsCampaignCreateInput>;

const refuse = (code: ErrorCode, message: string, field: string) => new AppError(code, message, { fields: { [field]: message } });
const blank = (v: string | undefined) => v === undefined || v.trim() === "";

/** The first CSV column that holds template variables (0-2 are telefone, cpf, email). */
export const FIRST_VARIABLE_COLUMN = 3;

/**
 * Spec 3 §5 in the spec's order: cost center, title, file, then the SMS rules (template; start and
 * end hour each required when the other is filled). Returns the window in minutes.
 */
function requiredRefusal(input: Input): { start: number | null; end: number | null } {
  if (!input.cost_center_id) throw refuse("ERR_CAMPAIGN_COST_CENTER_REQUIRED", M.costCenterRequired, "cost_center_id");
  if (blank(input.title)) throw refuse("ERR_CAMPAIGN_TITLE_REQUIRED", M.titleRequired, "title");
  if (blank(input.filename)) throw refuse("ERR_CAMPAIGN_FILE_REQUIRED", M.fileRequired, "filename");
  if (!/\.csv$/i.test(input.filename!.trim())) throw refuse("ERR_CAMPAIGN_FILE_EXTENSION", "Extensão não permitida.", "filename");
  if (!input.template) throw refuse("ERR_SMS_TEMPLATE_REQUIRED", M.templateRequired, "template");
  const start = parseSmsHour(input.start_hour);
  const end = parseSmsHour(input.end_hour);
  if (start === null && end !== null) throw refuse("ERR_SMS_HOURS_INVALID", M.startHourRequired, "start_hour");
  if (end === null && start !== null) throw refuse("ERR_SMS_HOURS_INVALID", M.endHourRequired, "end_hour");
  if (start === "invalid") throw refuse("ERR_SMS_HOURS_INVALID", M.hourInvalid, "start_hour");
  if (end === "invalid") throw refuse("ERR_SMS_HOURS_INVALID", M.hourInvalid, "end_hour");
  if (start !== null && start === end) throw refuse("ERR_SMS_HOURS_INVALID", M.sameHours, "end_hour");
  return { start, end };
}

/**
 * The variable → column mapping: as sent (every name must be the template's, every column from index
 * 3), or by default the template's variables in order to columns 3, 4, ...
 */
export function variableMatrix(variables: string[], sent: Input["matrix_variables"]): { template_variable: string; file_index: number }[] {
  if (!sent.length) return variables.map((name, i) => ({ template_variable: name, file_index: FIRST_VARIABLE_COLUMN + i }));
  for (const m of sent) {
    if (!variables.includes(m.template_variable)) throw refuse("ERR_SMS_MATRIX_INVALID", M.matrixUnknown(m.template_variable), "matrix_variables");
    if (m.file_index < FIRST_VARIABLE_COLUMN) throw refuse("ERR_SMS_MATRIX_INVALID", M.matrixIndex, "matrix_variables");
  }
  // a variable left out of the mapping takes the next column after the mapped ones
  const used = Math.max(FIRST_VARIABLE_COLUMN - 1, ...sent.map((m) => m.file_index));
  const missing = variables.filter((v) => !sent.some((m) => m.template_variable === v));
  return [...sent.map((m) => ({ ...m })), ...missing.map((name, i) => ({ template_variable: name, file_index: used + 1 + i }))];
}

/**
 * POST /api/sms/campaigns/: checks the fields, that the cost center and template are the company's,
 * the template's text against the block list, then stores the campaign in MISSING_FILE with the
 * template's text (a later edit of the template does not change it). The CSV follows with PUT upload_url.
 */
export async function createSmsCampaign(ctx: AppContext, actor: { companyId: number; id: number | null }, input: Input, source: "WEB" | "API" = "WEB") {
  const { start, end } = requiredRefusal(input);
  const companyId = actor.companyId;
  const cc = await ctx.sql.maybe("SELECT 1 FROM cost_centers WHERE company_id = $1 AND id = $2", [companyId, input.cost_center_id]);
  if (!cc) throw refuse("ERR_NOT_FOUND", M.costCenterNotFound, "cost_center_id");
  const template = await findSmsTemplate(ctx.sql, companyId, input.template!);
  if (!template) throw refuse("ERR_NOT_FOUND", M.templateNotFound, "template");
  await assertNoBlockedWords(ctx.sql, companyId, [template.content]);
  const matrix = variableMatrix(smsTemplateVariables(template.content), input.matrix_variables);
  const scheduledAt = input.schedule_date ? await scheduleInstant(ctx.sql, companyId, input.schedule_date).catch((err: unknown) => {
    if (err instanceof AppError) throw new AppError(err.code, err.message, { fields: { schedule_date: err.message } });
    throw err;
  }) : null;
  const row = await ctx.sql.one<{ id: number }>(
    `INSERT INTO sms_campaigns (company_id, user_id, title, cost_center_id, template_id, template_content, matrix_variables,
       contact_variable_index, cpf_variable_index, use_file, use_whitelist, use_blacklist_nexus, use_shortener_url, tags,
       start_minute, end_minute, scheduled_at, file_name, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, true, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id`,
    [
      companyId,
      actor.id,
      input.title!.trim(),
      input.cost_center_id,
      template.id,
      template.content,
      JSON.stringify(matrix),
      input.contact_variable_index,
      input.cpf_variable_index,
      input.use_whitelist,
      input.use_blacklist_nexus,
      input.use_shortener_url,
      [...new Set(input.tags)],
      start,
      end,
      scheduledAt,
      input.filename!.trim().slice(0, 255),
      source,
    ],
  );
  await smsNotifier(ctx).now(row.id, "create");
  return getSmsCampaign(ctx, companyId, row.id);
}

export async function getSmsCampaign(ctx: AppContext, companyId: number, id: number) {
  const row = await findSmsCampaign(ctx.sql, companyId, id);
  if (!row) throw new AppError("ERR_SMS_CAMPAIGN_NOT_FOUND", M.notFound);
  return presentSmsCampaign(row);
}
