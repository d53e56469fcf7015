import {
  EMAIL_TEMPLATE_MAX_BYTES,
  MESSAGE_TEMPLATE_PAGE_SIZE,
  type EmailTemplate,
  type EmailTemplatePage,
  type emailTemplateInput,
  type messageTemplatesQuery,
  type SmsTemplate,
  type SmsTemplatePage,
  type smsTemplateInput,
} from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { assertNoBlockedWords } from "../keywords/service.js";
import { presentEmailTemplate, presentEmailTemplateSummary, presentSmsTemplate } from "./presenter.js";
import * as repo from "./repository.js";
import { visibleText } from "./visible-text.js";

type Query = z.output<typeof messageTemplatesQuery>;
type SmsInput = z.output<typeof smsTemplateInput>;
type EmailInput = z.output<typeof emailTemplateInput>;

const smsNotFound = () => new AppError("ERR_SMS_TEMPLATE_NOT_FOUND", "Template não encontrado");
const emailNotFound = () => new AppError("ERR_EMAIL_TEMPLATE_NOT_FOUND", "Template não encontrado");

/** The page window and the services' `next`: the next page's number while more rows exist. */
function paging(page: number) {
  return { limit: MESSAGE_TEMPLATE_PAGE_SIZE, offset: (page - 1) * MESSAGE_TEMPLATE_PAGE_SIZE };
}
const nextPage = (page: number, count: number) => (page * MESSAGE_TEMPLATE_PAGE_SIZE < count ? page + 1 : null);

export async function listSmsTemplates(ctx: AppContext, companyId: number, q: Query): Promise<SmsTemplatePage> {
  const { rows, count } = await repo.listSmsTemplates(ctx.sql, companyId, { title: (q.title ?? "").trim(), ...paging(q.page) });
  return { results: rows.map(presentSmsTemplate), count, next: nextPage(q.page, count) };
}

export async function getSmsTemplate(ctx: AppContext, companyId: number, id: number): Promise<SmsTemplate> {
  const row = await repo.findSmsTemplate(ctx.sql, companyId, id);
  if (!row) throw smsNotFound();
  return presentSmsTemplate(row);
}

export async function createSmsTemplate(ctx: AppContext, companyId: number, input: SmsInput): Promise<SmsTemplate> {
  await assertNoBlockedWords(ctx.sql, companyId, [input.content]);
  return presentSmsTemplate(await repo.insertSmsTemplate(ctx.sql, companyId, input));
}

export async function updateSmsTemplate(ctx: AppContext, companyId: number, id: number, input: SmsInput): Promise<SmsTemplate> {
  if (!(await repo.findSmsTemplate(ctx.sql, companyId, id))) throw smsNotFound();
  await assertNoBlockedWords(ctx.sql, companyId, [input.content]);
  const row = await repo.updateSmsTemplate(ctx.sql, companyId, id, input);
  if (!row) throw smsNotFound();
  return presentSmsTemplate(row);
}

export async function listEmailTemplates(ctx: AppContext, companyId: number, q: Query): Promise<EmailTemplatePage> {
  const { rows, count } = await repo.listEmailTemplates(ctx.sql, companyId, { title: (q.title ?? "").trim(), ...paging(q.page) });
  return { results: rows.map(presentEmailTemplateSummary), count, next: nextPage(q.page, count) };
}

export async function getEmailTemplate(ctx: AppContext, companyId: number, id: number): Promise<EmailTemplate> {
  const row = await repo.findEmailTemplate(ctx.sql, companyId, id);
  if (!row) throw emailNotFound();
  return presentEmailTemplate(row);
}

/**
 * The HTML is stored as sent (it is only rendered in sandboxed iframes or sent as e-mail); the block
 * list is checked against the subject and the text a reader sees, so markup cannot split a word.
 */
async function checkEmailTemplate(ctx: AppContext, companyId: number, input: EmailInput): Promise<void> {
  if (Buffer.byteLength(input.content, "utf8") > EMAIL_TEMPLATE_MAX_BYTES) {
    throw new AppError("ERR_EMAIL_TEMPLATE_TOO_LARGE", "O conteúdo do template passa de 512 KB");
  }
  await assertNoBlockedWords(ctx.sql, companyId, [input.subject, visibleText(input.content)]);
}

export async function createEmailTemplate(ctx: AppContext, companyId: number, input: EmailInput): Promise<EmailTemplate> {
  await checkEmailTemplate(ctx, companyId, input);
  return presentEmailTemplate(await repo.insertEmailTemplate(ctx.sql, companyId, input));
}

export async function updateEmailTemplate(ctx: AppContext, companyId: number, id: number, input: EmailInput): Promise<EmailTemplate> {
  if (!(await repo.findEmailTemplate(ctx.sql, companyId, id))) throw emailNotFound();
  await checkEmailTemplate(ctx, companyId, input);
  const row = await repo.updateEmailTemplate(ctx.sql, companyId, id, input);
  if (!row) throw emailNotFound();
  return presentEmailTemplate(row);
}
