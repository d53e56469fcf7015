import { offeredAtSignup, SIGNUP_TRIAL_DAYS_DEFAULT, type SignupSettings } from "@atende/shared";
import { AppError } from "../../core/errors.js";
import type { Sql } from "../../db/sql.js";
import { companyOrPlatform } from "../../db/platform-company.js";

/**
 * The trial length and the plan sign-up selects first (migration 0806, the platform company's row):
 * set by the super administrator on the Plans tab; without a row, SIGNUP_TRIAL_DAYS_DEFAULT days and no plan.
 */
export async function readSignupSettings(sql: Sql): Promise<SignupSettings> {
  const row = await sql.maybe<{ trial_days: number; plan_id: number | null }>(
    `SELECT trial_days, plan_id FROM signup_settings WHERE company_id = ${companyOrPlatform("NULL::int")}`,
  );
  return { trialDays: row?.trial_days ?? SIGNUP_TRIAL_DAYS_DEFAULT, planId: row?.plan_id ?? null };
}

/** Saves them; the plan must exist and be one sign-up offers (a plan with a value). */
export async function saveSignupSettings(sql: Sql, s: SignupSettings): Promise<SignupSettings> {
  if (s.planId !== null) {
    const plan = await sql.maybe<{ value: string }>("SELECT value FROM plans WHERE id = $1", [s.planId]);
    if (!plan) throw new AppError("ERR_VALIDATION", "Plano não encontrado", { fields: { planId: "Plano não encontrado" } });
    if (!offeredAtSignup({ value: Number(plan.value) })) {
      throw new AppError("ERR_PLAN_NOT_OFFERED", "Um plano sem valor não é oferecido no cadastro", { fields: { planId: "Escolha um plano com valor" } });
    }
  }
  await sql.exec(
    `INSERT INTO signup_settings (company_id, trial_days, plan_id) VALUES (${companyOrPlatform("NULL::int")}, $1, $2)
     ON CONFLICT (company_id) DO UPDATE SET trial_days = EXCLUDED.trial_days, plan_id = EXCLUDED.plan_id, updated_at = now()`,
    [s.trialDays, s.planId],
  );
  return readSignupSettings(sql);
}
