import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import type { Mailer } from "../../core/mailer.js";
import * as repo from "./repository.js";

export const SEND_EMAIL_JOB = "email-tool.send";

export const sendEmailJobPayload = z.object({ companyId: z.number().int().positive(), sentEmailId: z.number().int().positive() });
export type SendEmailJobPayload = z.infer<typeof sendEmailJobPayload>;

export const INTERRUPTED_EMAIL = "Envio interrompido (o servidor parou durante o envio): o e-mail pode ou não ter sido entregue.";
export const NO_SMTP = "E-mail não enviado: o servidor de e-mail (SMTP_URL) não está configurado.";

export type EmailOutcome = "sent" | "failed" | "skipped";

/**
 * Sends one e-mail of the tool at most once (the shape of schedules' runScheduleSend):
 * 1. under the row lock, a row no longer queued is skipped, otherwise it is claimed and the claim committed;
 * 2. the mailer hands it to the SMTP server;
 * 3. sent, or failed with the reason.
 * A job that finds a claim left by a process that died during step 2 cannot know whether the SMTP
 * server accepted the message, so it records failed instead of sending a possible duplicate.
 */
export async function runEmailSend(ctx: AppContext, mailer: Mailer, p: SendEmailJobPayload): Promise<EmailOutcome> {
  const claimed = await ctx.sql.tx(async (sql) => {
    const row = await repo.findSentEmail(sql, p.companyId, p.sentEmailId, { lock: true });
    if (!row) return null;
    if (row.status === "sending") {
      await repo.markFailed(sql, row.company_id, row.id, INTERRUPTED_EMAIL);
      return "interrupted" as const;
    }
    if (row.status !== "queued") return null;
    await repo.claim(sql, row.company_id, row.id);
    return row;
  });
  if (claimed === null) return "skipped";
  if (claimed === "interrupted") return "failed";
  // without SMTP the mailer only logs; in production that must not read as 'sent' in the list
  if (!ctx.config.smtpUrl && ctx.config.env === "production") {
    await repo.markFailed(ctx.sql, claimed.company_id, claimed.id, NO_SMTP);
    return "failed";
  }
  try {
    await mailer.send({ to: claimed.sender, subject: claimed.subject, text: claimed.message, companyId: p.companyId });
    await repo.markSent(ctx.sql, claimed.company_id, claimed.id);
    return "sent";
  } catch (err) {
    ctx.log.warn({ err, companyId: claimed.company_id, sentEmailId: claimed.id }, "e-mail tool: SMTP send failed");
    await repo.markFailed(ctx.sql, claimed.company_id, claimed.id, err instanceof Error ? err.message : String(err));
    return "failed";
  }
}
