import type { SignupInput, SignupResponse } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { hashPassword } from "../../core/password.js";
import * as settingsRepo from "../settings/repository.js";
import { companyConflict, createCompanyWithAdmin } from "./service.js";

/** Tomorrow (UTC), YYYY-MM-DD: the trial's due date. */
export function trialDueDate(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString().slice(0, 10);
}

/**
 * Public sign-up (2-administration §7): the server, never the request, decides the due date
 * (tomorrow), status (active), recurrence (MENSAL) and campaigns (on). The platform company's
 * `userCreation` setting switches sign-up off.
 */
/** `clientAddress` keys the password-hashing queue: an anonymous sign-up shares it with logins. */
export async function signup(ctx: AppContext, input: SignupInput, clientAddress: string): Promise<SignupResponse> {
  if ((await settingsRepo.getPlatformSetting(ctx.sql, "userCreation")) === "disabled") {
    throw new AppError("ERR_USER_CREATION_DISABLED", "O cadastro de novas empresas está desativado");
  }
  const email = input.email.toLowerCase();
  const dueDate = trialDueDate();
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
      ),
    )
    .catch((err: unknown) => {
      throw companyConflict(err);
    });
  return { id, name: input.name, email, dueDate };
}
