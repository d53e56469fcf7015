import type { Config } from "../config.js";
import { hashPassword } from "../core/password.js";
import type { Sql } from "./sql.js";

/**
 * First start on an empty database: the platform company, a default plan with every feature and no
 * limits, and the super administrator from ADMIN_EMAIL / ADMIN_PASSWORD. Runs once (a platform company
 * exists afterwards), safe when several processes start together.
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
    await tx.exec(
      `INSERT INTO users (company_id, name, email, password_hash, profile, super, all_ticket)
       VALUES ($1, 'Administrador', $2, $3, 'admin', true, 'enable')`,
      [company.id, config.adminEmail.toLowerCase(), await hashPassword(config.adminPassword)],
    );
    return true;
  });
}
