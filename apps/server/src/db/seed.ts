import { SIGNUP_TRIAL_DAYS_DEFAULT } from "@atende/shared";
import type { Config } from "../config.js";
import { hashPassword } from "../core/password.js";
import type { Sql } from "./sql.js";

/** The plan a fresh installation offers at sign-up: priced, so a company that signs up gets an invoice. */
export const SEED_SIGNUP_PLAN = { name: "Plano Essencial", users: 5, connections: 2, queues: 5, value: 99.9 } as const;

/**
 * First start on an empty database: the platform company, a default plan with every feature and no
 * limits (the platform company's, R$ 0,00: never offered at sign-up), a priced plan that sign-up
 * selects first (SEED_SIGNUP_PLAN) with the default trial, and the super administrator from
 * ADMIN_EMAIL / ADMIN_PASSWORD. Runs once (a platform company exists afterwards), safe when several
 * processes start together.
 */
export async function seedFirstStart(sql: Sql, config: Config): Promise<boolean> {
  return sql.tx(async (tx) => {
    await tx.exec("SELECT pg_advisory_xact_lock(727002)");
    const existing = await tx.maybe("SELECT id FROM companies WHERE is_platform");
    if (existing) return false;
    const plan = await tx.one<{ id: number }>(
      `INSERT INTO plans (name, users, connections, queues, value) VALUES ('Plano Padrão', 0, 0, 0, 0)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    );
    const company = await tx.one<{ id: number }>(
      `INSERT INTO companies (name, email, plan_id, status, due_date, recurrence, is_platform)
       VALUES ('Empresa Plataforma', $1, $2, true, (now() + interval '10 years')::date, 'MENSAL', true) RETURNING id`,
      [config.adminEmail, plan.id],
    );
    const signupPlan = await tx.one<{ id: number }>(
      `INSERT INTO plans (name, users, connections, queues, value) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [SEED_SIGNUP_PLAN.name, SEED_SIGNUP_PLAN.users, SEED_SIGNUP_PLAN.connections, SEED_SIGNUP_PLAN.queues, SEED_SIGNUP_PLAN.value],
    );
    await tx.exec("INSERT INTO signup_settings (company_id, trial_days, plan_id) VALUES ($1, $2, $3)", [company.id, SIGNUP_TRIAL_DAYS_DEFAULT, signupPlan.id]);
    await tx.exec(
      `INSERT INTO users (company_id, name, email, password_hash, profile, super, all_ticket)
       VALUES ($1, 'Administrador', $2, $3, 'admin', true, 'enable')`,
      [company.id, config.adminEmail.toLowerCase(), await hashPassword(config.adminPassword)],
    );
    return true;
  });
}
