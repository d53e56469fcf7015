import { EMAIL_TOOL_HOURLY_LIMIT, SENT_EMAIL_PAGE_SIZE, type SentEmail, type SentEmailsPage, type sendEmailInput } from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { SEND_EMAIL_JOB, type SendEmailJobPayload } from "./job.js";
import * as repo from "./repository.js";

type SendInput = z.output<typeof sendEmailInput>;

const HOUR_MS = 60 * 60 * 1000;

export const presentSentEmail = (r: repo.SentEmailRow): SentEmail => ({
  id: r.id,
  sender: r.sender,
  subject: r.subject,
  message: r.message,
  status: r.status,
  error: r.error,
  userName: r.user_name,
  created_at: r.created_at.toISOString(),
});

/**
 * POST /enviar-email: records the e-mail and its send job in one transaction (the job exists exactly
 * when the row does) and answers at once; the job sends it. `tokenSenha` never reaches this far.
 * The company may send EMAIL_TOOL_HOURLY_LIMIT e-mails in any sliding hour: the tool is for a few
 * messages, not a spam cannon (e-mail campaigns are the bulk channel).
 */
export async function sendEmail(ctx: AppContext, actor: { companyId: number; id: number }, input: SendInput, limit = EMAIL_TOOL_HOURLY_LIMIT): Promise<SentEmail> {
  const id = await ctx.sql.tx(async (sql) => {
    await repo.lockCompanyBudget(sql, actor.companyId);
    const used = await repo.countSentSince(sql, actor.companyId, new Date(Date.now() - HOUR_MS));
    if (used >= limit) {
      throw new AppError("ERR_EMAIL_TOOL_RATE_LIMIT", `Limite de ${limit} e-mails por hora atingido. Tente novamente mais tarde.`, { limit });
    }
    const sentEmailId = await repo.insertSentEmail(sql, actor.companyId, { userId: actor.id, to: input.email, subject: input.assunto, message: input.mensagem });
    const payload: SendEmailJobPayload = { companyId: actor.companyId, sentEmailId };
    await ctx.jobs.send(SEND_EMAIL_JOB, payload, { db: sql, singletonKey: `sent-email-${sentEmailId}` });
    return sentEmailId;
  });
  const row = await repo.findSentEmail(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NOT_FOUND");
  return presentSentEmail(row);
}

/** GET /listar-emails-enviados: the company's own, newest first, 5 a page. */
export async function listSentEmails(ctx: AppContext, companyId: number, page: number): Promise<SentEmailsPage> {
  const { rows, count } = await repo.listSentEmails(ctx.sql, companyId, { limit: SENT_EMAIL_PAGE_SIZE, offset: (page - 1) * SENT_EMAIL_PAGE_SIZE });
  return { results: rows.map(presentSentEmail), count, next: page * SENT_EMAIL_PAGE_SIZE < count ? page + 1 : null };
}
