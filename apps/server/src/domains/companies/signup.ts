import { offeredAtSignup, type SignupInput, type SignupResponse } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { hashPassword } from "../../core/password.js";
import { readSignupSettings } from "../billing/signup-settings.js";
import * as settingsRepo from "../settings/repository.js";
import { companyConflict, createCompanyWithAdmin } from "./service.js";

/** Today (UTC) plus the trial's days, YYYY-MM-DD: the trial's due date. */
export function trialDueDate(trialDays: number, now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + trialDays)).toISOString().slice(0, 10);
}

/**
 * Public sign-up (2-administration §7): the server, never the request, decides the due date (today
 * plus the trial the super administrator set, `signup_settings`), status (active), recurrence (MENSAL)
 * and campaigns (on). Only plans with a value are offered (`offeredAtSignup`): the company's invoice
 * is what it pays once the trial ends. The first admin gets the name of the person who signed up.
 * The platform company's `userCreation` setting switches sign-up off.
 */
/** `clientAddress` keys the password-hashing queue: an anonymous sign-up shares it with logins. */
export async function signup(ctx: AppContext, input: SignupInput, clientAddress: string): Promise<SignupResponse> {
  if ((await settingsRepo.getPlatformSetting(ctx.sql, "userCreation")) === "disabled") {
    throw new AppError("ERR_USER_CREATION_DISABLED", "O cadastro de novas empresas está desativado");
  }
  const plan = await ctx.sql.maybe<{ value: string }>("SELECT value FROM plans WHERE id = $1", [input.planId]);
  if (plan && !offeredAtSignup({ value: Number(plan.value) })) {
    throw new AppError("ERR_PLAN_NOT_OFFERED", "Este plano não está disponível para cadastro", { fields: { planId: "Escolha um plano com valor" } });
  }
  const email = input.email.toLowerCase();
  const dueDate = trialDueDate((await readSignupSettings(ctx.sql)).trialDays);
  const passwordHash = await hashPassword(input.password, `ip:${clientAddress}`);
  const id = await ctx.sql
    .tx((sql) =>
      createCompanyWithAdmin(
        sql,
        {
          name: input.name,
          email,
          phone: input.phone,
          planId: input.planId,
          status: true,
          campaignsEnabled: true,
          dueDate,
          recurrence: "MENSAL",
          biUrl: "",
          billingName: "",
          document: "",
        },
        passwordHash,
        input.userName,
      ),
    )
    .catch((err: unknown) => {
      throw companyConflict(err);
    });
  return { id, name: input.name, email, dueDate };
}
