import type { FastifyBaseLogger } from "fastify";
import { ConfigError, DEV_ADMIN_PASSWORD, type Config } from "../config.js";
import { hashPassword, verifyPassword } from "../core/password.js";
import { revokeSessions } from "../core/sessions.js";
import type { Sql } from "./sql.js";

/**
 * Production never runs while a super administrator's stored password is the development one
 * (`admin123`): a data directory first started with `npm start` (development) was seeded with it, and
 * ADMIN_PASSWORD only applies to the first start, so it would keep it silently. The stored hash itself
 * is checked (not a flag), so a password changed back to `admin123` is caught too.
 *
 * With REPLACE_DEVELOPMENT_ADMIN_PASSWORD=true the start replaces it with ADMIN_PASSWORD instead (which
 * production requires, 8+ characters, not the development one) and ends that user's sessions. Run by the
 * server's start-up after the seed; a no-op outside production.
 */
export async function assertNoDevelopmentPassword(sql: Sql, config: Config, log: Pick<FastifyBaseLogger, "warn">): Promise<void> {
  if (config.env !== "production") return;
  const supers = await sql.many<{ id: number; company_id: number; email: string; password_hash: string }>(
    "SELECT id, company_id, email::text AS email, password_hash FROM users WHERE super ORDER BY id",
  );
  const stale: typeof supers = [];
  for (const user of supers) if (await verifyPassword(DEV_ADMIN_PASSWORD, user.password_hash)) stale.push(user);
  if (!stale.length) return;
  const emails = stale.map((u) => u.email).join(", ");
  if (!config.replaceDevelopmentAdminPassword) {
    throw new ConfigError(
      `the super administrator ${emails} still has the development password "${DEV_ADMIN_PASSWORD}". ` +
        "Start once with REPLACE_DEVELOPMENT_ADMIN_PASSWORD=true to replace it with ADMIN_PASSWORD (docs/deployment.md \"The development password\")",
    );
  }
  const hash = await hashPassword(config.adminPassword);
  await sql.tx(async (tx) => {
    for (const user of stale) {
      await tx.exec("UPDATE users SET password_hash = $3, updated_at = now() WHERE company_id = $1 AND id = $2", [user.company_id, user.id, hash]);
      await revokeSessions(tx, { companyId: user.company_id, userId: user.id }, "password_changed");
    }
  });
  log.warn({ users: stale.map((u) => u.email) }, "the development password of the super administrator was replaced with ADMIN_PASSWORD");
}
