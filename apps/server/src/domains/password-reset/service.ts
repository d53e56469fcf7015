import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { PASSWORD_RESET } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import type { Mailer } from "../../core/mailer.js";
import { hashPassword } from "../../core/password.js";
import { revokeSessions } from "../../core/sessions.js";
import * as repo from "./repository.js";

/** Both answers of POST /forgetpassword take at least this long, so timing does not tell known e-mails apart. */
export const FORGET_MIN_MS = 400;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** HMAC-SHA-256 keyed by the server secret and bound to the user: a leaked table does not give codes away. */
export function hashCode(secret: string, userId: number, code: string): string {
  return createHmac("sha256", secret).update(`${userId}:${code}`).digest("hex");
}

export function newCode(): string {
  return String(randomInt(0, 10 ** PASSWORD_RESET.codeDigits)).padStart(PASSWORD_RESET.codeDigits, "0");
}

function resetMail(name: string, code: string, publicUrl: string) {
  const text = [
    `Olá, ${name}.`,
    "",
    `Seu código para redefinir a senha é: ${code}`,
    "",
    `Ele vale por ${PASSWORD_RESET.ttlMinutes} minutos e pode ser usado uma única vez em ${publicUrl.replace(/\/$/, "")}/forgetpsw.`,
    "Se você não pediu a redefinição, ignore este e-mail: sua senha continua a mesma.",
  ].join("\n");
  return { subject: "Código para redefinir sua senha", text };
}

/**
 * Step 1: a known e-mail gets a new 6-digit code (earlier codes stop working); an unknown one gets
 * 404 'Email não encontrado'. Both paths do the same work and take at least FORGET_MIN_MS; the mail is
 * sent after the answer so SMTP latency does not show either.
 */
export async function requestReset(ctx: AppContext, mailer: Mailer, log: { error(o: object, m: string): void }, rawEmail: string) {
  const started = Date.now();
  const email = rawEmail.trim().toLowerCase();
  const user = await repo.findUserByEmail(ctx.sql, email);
  const code = newCode();
  const codeHash = hashCode(ctx.config.jwtSecret, user?.id ?? 0, code);
  if (user) {
    await ctx.sql.tx((sql) => repo.replaceCode(sql, user.company_id, user.id, codeHash, PASSWORD_RESET.ttlMinutes));
  } else {
    // The same round trips as the known branch, on nothing.
    await ctx.sql.tx(async (sql) => {
      await sql.exec("UPDATE password_resets SET used_at = used_at WHERE user_id = 0");
      await sql.exec("SELECT $1::text", [codeHash]);
    });
  }
  await sleep(Math.max(0, FORGET_MIN_MS - (Date.now() - started)));
  if (!user) throw new AppError("ERR_NO_USER_FOUND", "Email não encontrado", { status: 404 });
  const mail = resetMail(user.name, code, ctx.config.publicUrl);
  void mailer.send({ to: user.email, ...mail }).catch((err: unknown) => log.error({ err, userId: user.id }, "password reset e-mail failed"));
}

const invalidCode = () => new AppError("ERR_INVALID_RESET_CODE", "Código inválido ou expirado");

/**
 * Step 2: the live code of the e-mail's user sets the new password. A wrong code counts an attempt
 * (the code is burnt at the fifth); the right one is spent, the password changes, every session ends.
 */
export async function resetPassword(ctx: AppContext, rawEmail: string, token: string, newPassword: string, clientAddress: string) {
  const email = rawEmail.trim().toLowerCase();
  const user = await repo.findUserByEmail(ctx.sql, email);
  if (!user) {
    hashCode(ctx.config.jwtSecret, 0, token);
    throw invalidCode();
  }
  const passwordHash = await hashPassword(newPassword, `ip:${clientAddress}`);
  let ended: string[] = [];
  const ok = await ctx.sql.tx(async (sql) => {
    const live = await repo.lockLiveCode(sql, user.company_id, user.id);
    if (!live) return false;
    const given = Buffer.from(hashCode(ctx.config.jwtSecret, user.id, token.trim()), "hex");
    const stored = Buffer.from(live.code_hash, "hex");
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
      await repo.countWrongAttempt(sql, live.id, PASSWORD_RESET.maxAttempts);
      return false;
    }
    await repo.markUsed(sql, live.id);
    await repo.setPassword(sql, user.company_id, user.id, passwordHash);
    ended = await revokeSessions(sql, { companyId: user.company_id, userId: user.id }, "password_reset");
    return true;
  });
  if (!ok) throw invalidCode();
  ctx.realtime.endSessions(ended);
}
