import { channel, LIMITS } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { dummyPasswordHash, verifyPassword } from "../../core/password.js";
import { rooms } from "../../core/realtime.js";
import { hashOpaqueToken, newOpaqueToken } from "../../core/tokens.js";
import { presentSessionUser } from "./presenter.js";
import * as repo from "./repository.js";

export interface IssuedSession {
  token: string;
  refreshToken: string;
  refreshExpires: Date;
  user: ReturnType<typeof presentSessionUser>;
  warningDays?: number;
}

/** Whole days from today (UTC) until the due date; negative when it has passed. */
export function daysUntil(dueDate: string, today = new Date()): number {
  const due = Date.parse(`${dueDate}T00:00:00Z`);
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.round((due - start) / 86_400_000);
}

async function issue(ctx: AppContext, companyId: number, userId: number, tokenVersion: number): Promise<IssuedSession> {
  const row = await repo.loadSessionUser(ctx.sql, companyId, userId);
  if (!row) throw new AppError("ERR_SESSION_EXPIRED");
  if (row.due_date && daysUntil(row.due_date) < 0) {
    throw new AppError("ERR_SUBSCRIPTION_EXPIRED", `Sua assinatura venceu em ${row.due_date}`, { dueDate: row.due_date });
  }
  const refresh = newOpaqueToken();
  const refreshExpires = new Date(Date.now() + ctx.config.refreshTokenTtlDays * 86_400_000);
  await repo.insertRefreshToken(ctx.sql, companyId, userId, refresh.hash, refreshExpires);
  const token = await ctx.tokens.signAccess({ userId, companyId, tokenVersion });
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
 * Password login. A new login ends the user's other sessions: their refresh tokens are revoked,
 * the token version moves on, and the auth event tells the other browser to leave.
 */
export async function login(ctx: AppContext, email: string, password: string): Promise<IssuedSession> {
  const user = await repo.findUserByEmail(ctx.sql, email.trim().toLowerCase());
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw new AppError("ERR_INVALID_CREDENTIALS", "E-mail ou senha inválidos");
  const session = await repo.loadSessionUser(ctx.sql, user.company_id, user.id);
  if (session?.due_date && daysUntil(session.due_date) < 0) {
    throw new AppError("ERR_SUBSCRIPTION_EXPIRED", `Sua assinatura venceu em ${session.due_date}`, { dueDate: session.due_date });
  }
  const { token_version } = await ctx.sql.tx(async (sql) => {
    await repo.revokeUserRefreshTokens(sql, user.company_id, user.id);
    return repo.bumpTokenVersion(sql, user.company_id, user.id);
  });
  ctx.realtime.emit(rooms.user(user.id), channel.auth(user.company_id), { action: "update", user: { id: user.id } });
  return issue(ctx, user.company_id, user.id, token_version);
}

/** Rotates the refresh token: the presented one is spent, a new pair is issued. */
export async function refresh(ctx: AppContext, refreshToken: string | undefined): Promise<IssuedSession> {
  if (!refreshToken) throw new AppError("ERR_SESSION_EXPIRED", "Sessão expirada. Faça login novamente.");
  const owner = await repo.consumeRefreshToken(ctx.sql, hashOpaqueToken(refreshToken));
  if (!owner) throw new AppError("ERR_SESSION_EXPIRED", "Sessão expirada. Faça login novamente.");
  const row = await repo.loadSessionUser(ctx.sql, owner.company_id, owner.user_id);
  if (!row) throw new AppError("ERR_SESSION_EXPIRED", "Sessão expirada. Faça login novamente.");
  return issue(ctx, owner.company_id, owner.user_id, row.token_version);
}

export async function logout(ctx: AppContext, companyId: number, userId: number): Promise<void> {
  await repo.revokeUserRefreshTokens(ctx.sql, companyId, userId);
  await repo.setOffline(ctx.sql, companyId, userId);
}

export async function me(ctx: AppContext, companyId: number, userId: number) {
  const row = await repo.loadSessionUser(ctx.sql, companyId, userId);
  if (!row) throw new AppError("ERR_NO_USER_FOUND");
  return presentSessionUser(row);
}
