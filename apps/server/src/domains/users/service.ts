import { limitReached, lockPlanLimit } from "../../db/plan-limits.js";
import {
  atLeast,
  canManageUsers,
  channel,
  LIMITS,
  userDeleteRefusal,
  userEditRefusal,
  type ErrorCode,
  type User,
  type UserChange,
  type UserCreateInput,
  type UserUpdateInput,
} from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { hashPassword, verifyPassword } from "../../core/password.js";
import { rooms } from "../../core/realtime.js";
import { revokeSessions } from "../../core/sessions.js";
import type { Sql } from "../../db/sql.js";
import { recordAudit } from "../audit-log/service.js";
import { presentUser, presentUserListItem } from "./presenter.js";
import * as repo from "./repository.js";
import { isUniqueViolation } from "../../db/errors.js";

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  ERR_NO_USER_FOUND: "Usuário não encontrado",
  ERR_EMAIL_ALREADY_EXISTS: "Já existe um usuário com este e-mail",
  ERR_NO_PERMISSION: "Sem permissão",
  ERR_NO_USER_DELETE: "Somente super administradores podem excluir usuários",
  ERR_CANNOT_EDIT_SUPER_USER: "O super administrador não pode ser alterado nem excluído",
  ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_USER: "O perfil do super administrador não pode ser alterado para usuário",
  ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_SUPERVISOR: "O perfil do super administrador não pode ser alterado para supervisor",
  ERR_CANNOT_EDIT_USER_CANNOT_EDIT_ADMIN: "Administradores não podem editar outros administradores",
  ERR_CANNOT_EDIT_OR_DEMOTE_OWN_ACCOUNT: "Você não pode alterar o perfil da sua própria conta",
  ERR_CANNOT_EDIT_OR_DELETE_OWN_ADMIN_ACCOUNT: "Você não pode excluir a sua própria conta",
};

const refuse = (code: ErrorCode) => new AppError(code, MESSAGES[code] ?? code);

const normalizeEmail = (email: string) => email.trim().toLowerCase();
const sameSet = (a: number[], b: number[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

/** The company a user id lives in, as the actor may see it: a super administrator sees every company. */
async function companyFor(ctx: AppContext, actor: RequestActor, userId: number): Promise<number> {
  if (!actor.super) return actor.companyId;
  return (await repo.companyOfUser(ctx.sql, userId)) ?? actor.companyId;
}

/** Users changing their own password prove they know the current one (a stolen session cannot lock them out). */
async function assertCurrentPassword(ctx: AppContext, companyId: number, id: number, current: string | undefined) {
  const stored = await repo.passwordHashOf(ctx.sql, companyId, id);
  if (!current || !stored || !(await verifyPassword(current, stored))) {
    throw new AppError("ERR_INVALID_CURRENT_PASSWORD", "A senha atual está incorreta");
  }
}

async function loadTarget(sql: Sql, companyId: number, id: number): Promise<repo.UserRow> {
  const row = await repo.findUser(sql, companyId, id);
  if (!row) throw refuse("ERR_NO_USER_FOUND");
  return row;
}

function parseQueueFilter(raw: string | undefined): number[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AppError("ERR_VALIDATION", "queueIds: JSON array of ids expected", { fields: { queueIds: "Invalid" } });
  }
  if (!Array.isArray(parsed) || !parsed.every((q) => Number.isInteger(Number(q)) && Number(q) > 0)) {
    throw new AppError("ERR_VALIDATION", "queueIds: JSON array of ids expected", { fields: { queueIds: "Invalid" } });
  }
  return parsed.map(Number);
}

async function assertRefs(sql: Sql, companyId: number, queueIds: number[] | undefined, whatsappId: number | null | undefined) {
  if (queueIds?.length) {
    const unique = [...new Set(queueIds)];
    if ((await repo.countCompanyQueues(sql, companyId, unique)) !== unique.length) {
      throw new AppError("ERR_VALIDATION", "queueIds: fila inexistente nesta empresa", { fields: { queueIds: "Invalid" } });
    }
  }
  if (whatsappId != null && !(await repo.whatsappExists(sql, companyId, whatsappId))) {
    throw new AppError("ERR_VALIDATION", "whatsappId: conexão inexistente nesta empresa", { fields: { whatsappId: "Invalid" } });
  }
}


/**
 * User events reach those who may list users (the users routes' admin gate, canManageUsers: admins
 * and super users share the admin room) and the user themself; e-mails and queues stay private.
 */
function userEventRooms(companyId: number, userId: number): string[] {
  return [rooms.profile(companyId, "admin"), rooms.user(userId)];
}

/**
 * A user's online flag changed (a socket opened, or the last one closed): the same user event as an
 * edit, so the users page and every list of users show presence by the one rule without a reload.
 */
export function announcePresence(ctx: AppContext, companyId: number, userId: number): void {
  emitUser(ctx, companyId, userId, "update").catch((err: unknown) => ctx.log.error({ err, companyId, userId }, "could not announce the user's presence"));
}

async function emitUser(ctx: AppContext, companyId: number, userId: number, action: "create" | "update"): Promise<User> {
  const row = await loadTarget(ctx.sql, companyId, userId);
  const user = presentUser(row);
  ctx.realtime.emit(userEventRooms(companyId, userId), channel.user(companyId), { action, user });
  return user;
}

export async function listUsers(ctx: AppContext, actor: RequestActor, q: { searchParam: string; pageNumber: number; queueIds?: string }) {
  const limit = LIMITS.listPageSize;
  const offset = (q.pageNumber - 1) * limit;
  const { rows, count } = await repo.listUsers(ctx.sql, actor.companyId, {
    search: q.searchParam.trim(),
    queueIds: parseQueueFilter(q.queueIds),
    limit,
    offset,
  });
  return { users: rows.map((r) => presentUser(r)), count, hasMore: count > offset + rows.length };
}

/** id and name of a company's users; a super administrator may name another company. */
export async function listUserNames(ctx: AppContext, actor: RequestActor, companyId?: number) {
  const target = actor.super && companyId ? companyId : actor.companyId;
  return (await repo.listUserNames(ctx.sql, target)).map(presentUserListItem);
}

export async function showUser(ctx: AppContext, actor: RequestActor, id: number): Promise<User> {
  const row = await loadTarget(ctx.sql, await companyFor(ctx, actor, id), id);
  if (row.id !== actor.id && !canManageUsers(actor)) throw refuse("ERR_NO_PERMISSION");
  return presentUser(row);
}

export async function createUser(ctx: AppContext, actor: RequestActor, input: UserCreateInput): Promise<User> {
  const companyId = actor.super && input.companyId ? input.companyId : actor.companyId;
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const id = await ctx.sql
    .tx(async (sql) => {
      const plan = await lockPlanLimit(sql, companyId, "users");
      if (!plan) throw new AppError("ERR_VALIDATION", "companyId: empresa não encontrada", { fields: { companyId: "Invalid" } });
      if (limitReached(plan)) {
        throw new AppError("ERR_PLAN_LIMIT_REACHED", `O plano da empresa permite no máximo ${plan.limit} usuário(s)`, { limit: plan.limit });
      }
      if (await repo.emailTaken(sql, email)) throw refuse("ERR_EMAIL_ALREADY_EXISTS");
      await assertRefs(sql, companyId, input.queueIds, input.whatsappId);
      const userId = await repo.insertUser(sql, companyId, {
        name: input.name,
        email,
        passwordHash,
        profile: input.profile,
        allTicket: input.allTicket,
        whatsappId: input.whatsappId ?? null,
      });
      await repo.setUserQueues(sql, companyId, userId, [...new Set(input.queueIds)]);
      return userId;
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? refuse("ERR_EMAIL_ALREADY_EXISTS") : err;
    });
  return emitUser(ctx, companyId, id, "create");
}

/** `ip`: the client address, for the audit line of a profile change. */
export async function updateUser(ctx: AppContext, actor: RequestActor, id: number, input: UserUpdateInput, ip = ""): Promise<User> {
  const companyId = await companyFor(ctx, actor, id);
  const target = await loadTarget(ctx.sql, companyId, id);
  const currentQueues = target.queues.map((q) => q.id);
  const queueIds = input.queueIds ? [...new Set(input.queueIds)] : undefined;

  // Only what actually changes counts: the web sends the whole form back.
  const change: UserChange = {};
  if (input.profile !== undefined && input.profile !== target.profile) change.profile = input.profile;
  if (queueIds && !sameSet(queueIds, currentQueues)) change.queueIds = queueIds;
  if (input.whatsappId !== undefined && input.whatsappId !== target.whatsapp_id) change.whatsappId = input.whatsappId;
  if (input.allTicket !== undefined && input.allTicket !== target.all_ticket) change.allTicket = input.allTicket;
  const refusal = userEditRefusal(actor, { id: target.id, companyId, profile: target.profile, super: target.super }, change);
  if (refusal) throw refuse(refusal);

  const email = input.email !== undefined ? normalizeEmail(input.email) : undefined;
  const self = actor.id === target.id;
  if (input.password && self) await assertCurrentPassword(ctx, companyId, id, input.currentPassword);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const demoted = change.profile !== undefined && !atLeast({ profile: change.profile, super: false }, target.profile);
  let ended: string[] = [];
  await ctx.sql
    .tx(async (sql) => {
      if (email !== undefined && email !== target.email && (await repo.emailTaken(sql, email, id))) throw refuse("ERR_EMAIL_ALREADY_EXISTS");
      await assertRefs(sql, companyId, change.queueIds, change.whatsappId);
      await repo.updateUser(sql, companyId, id, {
        name: input.name,
        email,
        passwordHash,
        profile: change.profile,
        allTicket: change.allTicket,
        whatsappId: change.whatsappId,
      });
      if (change.queueIds) await repo.setUserQueues(sql, companyId, id, change.queueIds);
      if (change.profile) {
        await recordAudit(sql, {
          companyId,
          action: "user.profile_changed",
          actor: { id: actor.id, name: actor.name },
          ip,
          target: { type: "user", id, label: target.email },
          details: { from: target.profile, to: change.profile },
        });
      }
      // A new password ends the user's sessions (one's own change keeps the session making it); a
      // lowered profile ends them too, so no token or socket keeps the old rights.
      if (passwordHash || demoted) {
        const scope = { companyId, userId: id, exceptSessionId: self && !demoted ? actor.sessionId : undefined };
        ended = await revokeSessions(sql, scope, demoted ? "demoted" : "password_changed");
      }
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? refuse("ERR_EMAIL_ALREADY_EXISTS") : err;
    });

  ctx.realtime.endSessions(ended);
  if (change.profile || change.queueIds || change.allTicket) await ctx.realtime.refreshUser(id, companyId);
  return emitUser(ctx, companyId, id, "update");
}

async function removeUser(ctx: AppContext, sql: Sql, actor: RequestActor, id: number): Promise<number> {
  const companyId = await companyFor(ctx, actor, id);
  const target = await loadTarget(sql, companyId, id);
  const refusal = userDeleteRefusal(actor, { id: target.id, companyId, profile: target.profile, super: target.super });
  if (refusal) throw refuse(refusal);
  try {
    await repo.deleteUser(sql, companyId, id);
  } catch (err) {
    // Another domain's rows still point at the user without a cascade rule.
    if ((err as { code?: string }).code === "23503") throw new AppError("ERR_VALIDATION", "O usuário possui registros vinculados", {}, 409);
    throw err;
  }
  return companyId;
}

function afterDelete(ctx: AppContext, companyId: number, userId: number) {
  // Its sessions went with it (ON DELETE CASCADE), so its tokens fail; close its sockets too.
  ctx.realtime.endUser(userId);
  ctx.realtime.emit(userEventRooms(companyId, userId), channel.user(companyId), { action: "delete", userId });
}

export async function deleteUser(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  if (!actor.super) throw refuse("ERR_NO_USER_DELETE");
  const companyId = await ctx.sql.tx((sql) => removeUser(ctx, sql, actor, id));
  afterDelete(ctx, companyId, id);
}

/** All or nothing: one protected or missing user refuses the whole batch. */
export async function bulkDeleteUsers(ctx: AppContext, actor: RequestActor, ids: number[]): Promise<number[]> {
  if (!actor.super) throw refuse("ERR_NO_USER_DELETE");
  const unique = [...new Set(ids)];
  const removed = await ctx.sql.tx(async (sql) => {
    const done: [number, number][] = [];
    for (const id of unique) done.push([id, await removeUser(ctx, sql, actor, id)]);
    return done;
  });
  for (const [id, companyId] of removed) afterDelete(ctx, companyId, id);
  return unique;
}
