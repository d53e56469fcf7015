import type { Sql } from "./sql.js";

export type LimitedResource = "users" | "connections" | "queues";

const TABLE: Record<LimitedResource, string> = { users: "users", connections: "whatsapps", queues: "queues" };

/**
 * Inside a transaction: locks the company row (serialising creations of this company) and then
 * counts its rows. The count is a separate statement on purpose: under READ COMMITTED it then sees
 * rows committed by a transaction that held the lock before us. `limit` 0 means unlimited; null when the company does not exist.
 */
export async function lockPlanLimit(sql: Sql, companyId: number, resource: LimitedResource): Promise<{ limit: number; used: number } | null> {
  const plan = await sql.maybe<{ limit: number }>(
    `SELECT p.${resource} AS limit FROM companies c JOIN plans p ON p.id = c.plan_id WHERE c.id = $1 FOR UPDATE OF c`,
    [companyId],
  );
  if (!plan) return null;
  const used = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${TABLE[resource]} WHERE company_id = $1`, [companyId]);
  return { limit: plan.limit, used: used.n };
}

export function limitReached(l: { limit: number; used: number }): boolean {
  return l.limit > 0 && l.used >= l.limit;
}
