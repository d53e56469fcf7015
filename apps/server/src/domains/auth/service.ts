import { channel, LIMITS } from "@atende/shared";
import { sessionExpired } from "../../core/access.js";
import { assertCompanyUsable, daysUntil } from "../../core/company-state.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { dummyPasswordHash, verifyPassword } from "../../core/password.js";
import { rooms } from "../../core/realtime.js";
import { createSession, revokeSessions } from "../../core/sessions.js";
import { hashOpaqueToken, newOpaqueToken } from "../../core/tokens.js";
import { recordAudit } from "../audit-log/service.js";
import { companyPayLink } from "../billing/company-pay-link.js";
import { presentSessionUser } from "./presenter.js";
import * as repo from "./repository.js";


export interface IssuedSession {
  token: string;
  refreshToken: string;
  refreshExpires: Date;
  user: ReturnType<typeof presentSessionUser>;
  warningDays?: number;
}

const companyOf = (row: repo.SessionRow) => ({ status: row.company_status, dueDate: row.due_date, isPlatform: row.is_platform });

/** A new refresh token of the session and an access token naming it. */
async function issue(ctx: AppContext, row: repo.SessionRow, sessionId: string): Promise<IssuedSession> {
  const owner = { companyId: row.company_id, userId: row.id, sessionId };
  const refresh = newOpaqueToken();
  const refreshExpires = new Date(Date.now() + ctx.config.refreshTokenTtlDays * 86_400_000);
  await repo.insertRefreshToken(ctx.sql, owner, refresh.hash, refreshExpires);
  const token = await ctx.tokens.signAccess(owner);
  const left = row.due_date ? daysUntil(row.due_date) : undefined;
  return {
    token,
    refreshToken: refresh.token,
    refreshExpires,
    user: presentSessionUser(row),
    warningDays: left !== undefined && left < LIMITS.subscriptionWarningDays ? left : undefined,
  };
}

/**
 * Password login. A new login ends the user's other sessions: the auth event tells the other
 * browser to leave, their tokens stop working and their sockets are closed. `clientAddress` keys the
 * password-hashing queue (core/password.ts).
 */
export async function login(ctx: AppContext, email: string, password: string, clientAddress: string): Promise<IssuedSession> {
  const typed = email.trim().toLowerCase();
  const user = await repo.findUserByEmail(ctx.sql, typed);
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()), `ip:${clientAddress}`, user ? 0 : 1);
  // every failure is in the audit log: of the user's company when the e-mail is a user's, else of the platform company
  const failed = async (reason: string, err: unknown) => {
    await recordAudit(ctx.sql, {
      companyId: user?.company_id ?? null,
      action: "login.failed",
      actor: { id: null, name: "" },
      ip: clientAddress,
      target: { type: "user", id: user?.id ?? null, label: typed.slice(0, 254) },
      details: { reason },
    });
    return err;
  };
  if (!user || !ok) throw await failed(user ? "wrong_password" : "unknown_email", new AppError("ERR_INVALID_CREDENTIALS", "E-mail ou senha inválidos"));
  const row = await repo.loadSessionUser(ctx.sql, user.company_id, user.id);
  if (!row) throw await failed("unknown_email", new AppError("ERR_INVALID_CREDENTIALS", "E-mail ou senha inválidos"));
  try {
    assertCompanyUsable(companyOf(row));
  } catch (err) {
    throw await failed(err instanceof AppError ? err.code : "company_unusable", await withPayLink(ctx, err, user.company_id));
  }
  const { ended, sessionId } = await ctx.sql.tx(async (sql) => {
    const ended = await revokeSessions(sql, { companyId: user.company_id, userId: user.id }, "login_elsewhere");
    await repo.markOnline(sql, user.company_id, user.id);
    await recordAudit(sql, {
      companyId: user.company_id,
      action: "login.succeeded",
      actor: { id: user.id, name: row.name },
      ip: clientAddress,
      target: { type: "user", id: user.id, label: row.email },
    });
    return { ended, sessionId: await createSession(sql, user.company_id, user.id) };
  });
  // The event first, then the close: the other browser shows 'accessed on another computer'.
  ctx.realtime.emit(rooms.user(user.id), channel.auth(user.company_id), { action: "update", user: { id: user.id } });
  ctx.realtime.endSessions(ended);
  return issue(ctx, row, sessionId);
}

/**
 * A login refused after the due date keeps its message with the date and makes no session, but it
 * carries `payUrl`: the signed link to the company's open invoice's Pix page, payable without
 * logging in (billing/pay-link.ts). Given only to whoever typed the right password.
 */
async function withPayLink(ctx: AppContext, err: unknown, companyId: number): Promise<unknown> {
  if (!(err instanceof AppError) || err.code !== "ERR_SUBSCRIPTION_EXPIRED") return err;
  try {
    const payUrl = await companyPayLink(ctx, companyId);
    return payUrl ? new AppError(err.code, err.message, { ...err.extra, payUrl }, err.status) : err;
  } catch (linkErr) {
    ctx.log.error({ err: linkErr, companyId }, "auth: could not make the pay link of a login refused after the due date; refused without it");
    return err;
  }
}

/**
 * Rotates the refresh token of a live session: the presented one is spent, a new pair is issued. A
 * token presented again after its reuse grace ends its whole session (`endReusedSession`).
 */
export async function refresh(ctx: AppContext, refreshToken: string | undefined, clientAddress: string): Promise<IssuedSession> {
  if (!refreshToken) throw sessionExpired();
  const hash = hashOpaqueToken(refreshToken);
  const owner = await repo.consumeRefreshToken(ctx.sql, hash);
  if (!owner) {
    await endReusedSession(ctx, hash, clientAddress);
    throw sessionExpired();
  }
  const row = await repo.loadSessionUser(ctx.sql, owner.company_id, owner.user_id);
  if (!row) throw sessionExpired();
  assertCompanyUsable(companyOf(row));
  return issue(ctx, row, owner.session_id);
}

/**
 * A spent refresh token presented past its grace means two holders of one token: the user's browser
 * and someone who copied it (or the other way round — the server cannot tell which is the thief). The
 * session ends for both: its access tokens and every other refresh token stop working, its sockets are
 * closed, and the audit log of the user's company says so. The user signs in again.
 */
async function endReusedSession(ctx: AppContext, hash: string, clientAddress: string): Promise<void> {
  const ended = await ctx.sql.tx(async (sql) => {
    const reused = await repo.findReusedRefreshToken(sql, hash);
    if (!reused) return [];
    const ids = await revokeSessions(sql, { companyId: reused.company_id, userId: reused.user_id, sessionId: reused.session_id }, "refresh_token_reused");
    // two requests with the same token at once: the second finds the session already ended
    if (!ids.length) return [];
    const email = await repo.userEmail(sql, reused.company_id, reused.user_id);
    await recordAudit(sql, {
      companyId: reused.company_id,
      action: "session.token_reused",
      actor: { id: null, name: "" },
      ip: clientAddress,
      target: { type: "user", id: reused.user_id, label: email ?? "" },
      details: { sessionId: reused.session_id },
    });
    ctx.log.warn({ companyId: reused.company_id, userId: reused.user_id, sessionId: reused.session_id, ip: clientAddress }, "a spent refresh token was presented again: its session ended");
    return ids;
  });
  ctx.realtime.endSessions(ended);
}

/** Ends the caller's session: its tokens and sockets, on every process. */
export async function logout(ctx: AppContext, companyId: number, userId: number, sessionId: string | undefined): Promise<void> {
  if (sessionId) {
    const ended = await revokeSessions(ctx.sql, { companyId, userId, sessionId }, "logout");
    ctx.realtime.endSessions(ended);
  }
  await repo.setOffline(ctx.sql, companyId, userId);
}

export async function me(ctx: AppContext, companyId: number, userId: number) {
  const row = await repo.loadSessionUser(ctx.sql, companyId, userId);
  if (!row) throw new AppError("ERR_NO_USER_FOUND");
  return presentSessionUser(row);
}
