import { BI_URL_MESSAGES, biUrlRefusal, type Company, type CompanyCreateInput, type CompanyUpdateInput, type ScheduleEntry } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { hashPassword } from "../../core/password.js";
import { companyRefusal } from "../../core/company-state.js";
import { revokeSessions } from "../../core/sessions.js";
import type { Sql } from "../../db/sql.js";
import { withSettingDefaults } from "../auth/presenter.js";
import * as settingsRepo from "../settings/repository.js";
import * as usersRepo from "../users/repository.js";
import { presentCompany } from "./presenter.js";
import * as repo from "./repository.js";
import { isUniqueViolation } from "../../db/errors.js";

export const companyNotFound = () => new AppError("ERR_NOT_FOUND", "Empresa não encontrada");
const nameTaken = () =>
  new AppError("ERR_VALIDATION", "Já existe uma empresa com este nome", { fields: { name: "Already exists" } }, 409);
const emailTaken = () => new AppError("ERR_EMAIL_ALREADY_EXISTS", "Já existe um usuário com este e-mail");
const planMissing = () => new AppError("ERR_VALIDATION", "planId: plano não encontrado", { fields: { planId: "Invalid" } });

/** Maps the unique indexes a company write can hit to their catalogue errors. */
export function companyConflict(err: unknown): unknown {
  if (!isUniqueViolation(err)) return err;
  return isUniqueViolation(err, "users_email_key") ? emailTaken() : nameTaken();
}

/** A company the actor may read: any for a super administrator, otherwise only its own. */
async function visibleCompany(sql: Sql, actor: RequestActor, id: number) {
  if (!actor.super && id !== actor.companyId) throw companyNotFound();
  const row = await repo.findCompany(sql, id);
  if (!row) throw companyNotFound();
  return row;
}

export async function listCompanies(ctx: AppContext, actor: RequestActor): Promise<Company[]> {
  if (!actor.super) return [presentCompany(await visibleCompany(ctx.sql, actor, actor.companyId))];
  return (await repo.listCompanies(ctx.sql)).map((row) => presentCompany(row));
}

export async function showCompany(ctx: AppContext, actor: RequestActor, id: number): Promise<Company> {
  const row = await visibleCompany(ctx.sql, actor, id);
  return presentCompany(row, withSettingDefaults(await settingsRepo.listSettings(ctx.sql, id)));
}

/** GET /companies/listPlan/{companyId}: the company with its plan (own company or super). */
export async function companyPlan(ctx: AppContext, actor: RequestActor, id: number): Promise<Company> {
  return presentCompany(await visibleCompany(ctx.sql, actor, id));
}

/** Creates a company and its first admin (name = `adminName`, else the company's; e-mail = company e-mail). */
export async function createCompanyWithAdmin(sql: Sql, fields: repo.CompanyFields, passwordHash: string, adminName = fields.name): Promise<number> {
  if (!(await repo.planExists(sql, fields.planId))) throw planMissing();
  if (await usersRepo.emailTaken(sql, fields.email)) throw emailTaken();
  const id = await repo.insertCompany(sql, fields);
  await usersRepo.insertUser(sql, id, {
    name: adminName,
    email: fields.email,
    passwordHash,
    profile: "admin",
    allTicket: "disable",
    whatsappId: null,
  });
  await settingsRepo.upsertSetting(sql, id, "campaignsEnabled", String(fields.campaignsEnabled));
  return id;
}

/** A biUrl the BI page could not embed is refused here, with the rule the page applies (biUrlRefusal). */
function checkBiUrl(ctx: AppContext, biUrl: string | undefined): void {
  const refusal = biUrlRefusal(biUrl ?? "", ctx.config.biAllowedHosts);
  if (refusal) throw new AppError("ERR_VALIDATION", BI_URL_MESSAGES[refusal], { fields: { biUrl: BI_URL_MESSAGES[refusal] } });
}

export async function createCompany(ctx: AppContext, input: CompanyCreateInput): Promise<Company> {
  checkBiUrl(ctx, input.biUrl);
  const passwordHash = await hashPassword(input.password);
  const id = await ctx.sql
    .tx((sql) =>
      createCompanyWithAdmin(
        sql,
        {
          name: input.name,
          email: input.email.toLowerCase(),
          phone: input.phone,
          planId: input.planId,
          status: input.status,
          campaignsEnabled: input.campaignsEnabled,
          dueDate: input.dueDate ?? null,
          recurrence: input.recurrence,
          biUrl: input.biUrl,
          billingName: input.billingName,
          document: input.document,
        },
        passwordHash,
      ),
    )
    .catch((err: unknown) => {
      throw companyConflict(err);
    });
  const row = await repo.findCompany(ctx.sql, id);
  if (!row) throw companyNotFound();
  return presentCompany(row);
}

export async function updateCompany(ctx: AppContext, actor: RequestActor, id: number, input: CompanyUpdateInput): Promise<Company> {
  const current = await repo.findCompany(ctx.sql, id);
  if (!current) throw companyNotFound();
  // a biUrl stored before the rule is kept while the form saves other fields
  if (input.biUrl !== undefined && input.biUrl !== current.bi_url) checkBiUrl(ctx, input.biUrl);
  if (current.is_platform) {
    if (input.dueDate !== undefined && input.dueDate !== current.due_date) throw new AppError("ERR_CANNOT_UPDATE_SUPER_COMPANY_DUE_DATE");
    if (input.status === false) throw new AppError("ERR_NO_PERMISSION", "A empresa da plataforma não pode ser desativada");
  }
  const email = input.email?.toLowerCase();
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  // Deactivated or given a past due date: every session of the company ends now, not at next login.
  const refusal = companyRefusal({
    status: input.status ?? current.status,
    dueDate: input.dueDate !== undefined ? input.dueDate : current.due_date,
    isPlatform: current.is_platform,
  });
  let ended: string[] = [];
  await ctx.sql
    .tx(async (sql) => {
      if (input.planId !== undefined && !(await repo.planExists(sql, input.planId))) throw planMissing();
      const { password: _password, ...fields } = input;
      await repo.updateCompany(sql, id, { ...fields, email });
      if (input.campaignsEnabled !== undefined) await settingsRepo.upsertSetting(sql, id, "campaignsEnabled", String(input.campaignsEnabled));
      // The company's admin account follows the company e-mail and takes a new password from this form.
      if ((email && email !== current.email) || passwordHash) {
        const owner = await repo.findOwner(sql, id, current.email);
        if (owner) {
          const newEmail = email && email !== current.email && owner.email === current.email ? email : undefined;
          if (newEmail && (await usersRepo.emailTaken(sql, newEmail, owner.id))) throw emailTaken();
          await usersRepo.updateUser(sql, id, owner.id, { email: newEmail, passwordHash });
          if (passwordHash) {
            // As for any new password: the owner's sessions end, except the one making the change.
            const exceptSessionId = owner.id === actor.id ? actor.sessionId : undefined;
            ended = await revokeSessions(sql, { companyId: id, userId: owner.id, exceptSessionId }, "password_changed");
          }
        }
      }
      if (refusal) {
        const reason = refusal.code === "ERR_COMPANY_INACTIVE" ? "company_inactive" : "company_expired";
        ended = [...ended, ...(await revokeSessions(sql, { companyId: id }, reason))];
      }
    })
    .catch((err: unknown) => {
      throw companyConflict(err);
    });
  ctx.realtime.endSessions(ended);
  const row = await repo.findCompany(ctx.sql, id);
  if (!row) throw companyNotFound();
  return presentCompany(row);
}

export async function deleteCompany(ctx: AppContext, id: number): Promise<void> {
  const current = await repo.findCompany(ctx.sql, id);
  if (!current) throw companyNotFound();
  if (current.is_platform) throw new AppError("ERR_CANNOT_DELETE_SUPER_COMPANY");
  try {
    await repo.deleteCompany(ctx.sql, id);
  } catch (err) {
    if ((err as { code?: string }).code === "23503") throw new AppError("ERR_VALIDATION", "A empresa possui registros vinculados", {}, 409);
    throw err;
  }
  // Its users are gone: close their sockets.
  ctx.realtime.endCompany(id);
}

/** The company's time zone (the Options settings tab): an admin of the company, or a super administrator. */
export async function updateTimeZone(ctx: AppContext, actor: RequestActor, id: number, timeZone: string): Promise<Company> {
  await visibleCompany(ctx.sql, actor, id);
  await repo.setTimeZone(ctx.sql, id, timeZone);
  return presentCompany(await visibleCompany(ctx.sql, actor, id));
}

/** Company opening hours (the Hours settings tab): an admin of the company, or a super administrator. */
export async function updateSchedules(ctx: AppContext, actor: RequestActor, id: number, schedules: ScheduleEntry[]): Promise<Company> {
  await visibleCompany(ctx.sql, actor, id);
  await repo.setSchedules(ctx.sql, id, schedules);
  return presentCompany(await visibleCompany(ctx.sql, actor, id));
}
