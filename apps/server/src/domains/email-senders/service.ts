import type { EmailSenderAdmin } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { escapeHtml } from "../email-tracking/render.js";
import { readTrackingToken, signTrackingToken } from "../email-tracking/tokens.js";
import { mailDriverOf } from "../email-transport/shared-driver.js";
import * as repo from "./repository.js";

/** A verification link lives a week. */
const LINK_SECONDS = 7 * 24 * 3600;

const notFound = () => new AppError("ERR_NOT_FOUND", "Remetente não encontrado");

export function presentSenderAdmin(r: repo.EmailSenderRow): EmailSenderAdmin {
  return {
    id: r.id,
    email_address: r.email_address,
    verified: r.verified_at !== null,
    created_at: r.created_at.toISOString(),
    verification_sent_at: r.verification_sent_at.toISOString(),
  };
}

/**
 * Sends the address a signed link (`/t/v/<token>`: company, sender, expiry) through the mail driver (the
 * sandbox mailbox when no SMTP is configured). Opening it shows a confirmation button; its POST verifies.
 */
async function sendVerification(ctx: AppContext, companyId: number, id: number, address: string): Promise<void> {
  const token = signTrackingToken(ctx.config.jwtSecret, "v", [companyId, id, Math.floor(Date.now() / 1000) + LINK_SECONDS]);
  const url = `${ctx.config.publicUrl}/t/v/${token}`;
  const { driver } = mailDriverOf(ctx);
  const result = await driver.send({
    companyId,
    from: ctx.config.mailFrom,
    to: address,
    subject: "Confirme o remetente de e-mail",
    html: `<p>Este endereço foi cadastrado como remetente de campanhas de e-mail.</p><p><a href="${escapeHtml(url)}">Confirmar remetente</a></p><p>Se não foi você, ignore esta mensagem.</p>`,
    text: `Este endereço foi cadastrado como remetente de campanhas de e-mail. Confirme em: ${url}\nSe não foi você, ignore esta mensagem.`,
  });
  if (result.kind !== "accepted") {
    ctx.log.warn({ companyId, senderId: id, result }, "sender verification e-mail not accepted by the mail server");
    throw new AppError("ERR_VALIDATION", `O e-mail de verificação não foi aceito: ${result.message}`);
  }
  await repo.markVerificationSent(ctx.sql, companyId, id);
}

export async function addSender(ctx: AppContext, companyId: number, address: string): Promise<EmailSenderAdmin> {
  const id = await repo.insertSender(ctx.sql, companyId, address);
  if (id === null) throw new AppError("ERR_EMAIL_SENDER_DUPLICATE", "Este remetente já está cadastrado.");
  await sendVerification(ctx, companyId, id, address);
  return presentSenderAdmin((await repo.findSender(ctx.sql, companyId, id))!);
}

export async function resendVerification(ctx: AppContext, companyId: number, id: number): Promise<EmailSenderAdmin> {
  const row = await repo.findSender(ctx.sql, companyId, id);
  if (!row) throw notFound();
  if (!row.verified_at) await sendVerification(ctx, companyId, id, row.email_address);
  return presentSenderAdmin((await repo.findSender(ctx.sql, companyId, id))!);
}

export async function removeSender(ctx: AppContext, companyId: number, id: number): Promise<void> {
  if (!(await repo.deleteSender(ctx.sql, companyId, id))) throw notFound();
}

/** The sender a verification token names, when genuine and not expired; null otherwise. */
export function readVerification(ctx: AppContext, token: string): { companyId: number; senderId: number } | null {
  const parts = readTrackingToken(ctx.config.jwtSecret, "v", token);
  if (!parts) return null;
  const [companyId, senderId, expires] = parts.map(Number);
  if (!companyId || !senderId || !expires || expires * 1000 < Date.now()) return null;
  return { companyId, senderId };
}

export async function confirmVerification(ctx: AppContext, token: string): Promise<string | null> {
  const v = readVerification(ctx, token);
  if (!v) return null;
  return (await repo.markVerified(ctx.sql, v.companyId, v.senderId))?.email_address ?? null;
}
