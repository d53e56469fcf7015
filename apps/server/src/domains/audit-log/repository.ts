import type { AuditAction } from "@atende/shared";
import type { Sql } from "../../db/sql.js";
import { likeEscape } from "../contacts/repository.js";
import { companyOrPlatform } from "../../db/platform-company.js";

export interface AuditRow {
  id: string;
  action: AuditAction;
  actor_user_id: number | null;
  actor_name: string;
  ip: string;
  target_type: "" | "user" | "contact";
  target_id: number | null;
  target_label: string;
  details: Record<string, unknown>;
  created_at: Date;
}

export interface AuditRecord {
  /** null: the platform company's (a failed sign-in with an e-mail no user has; db/platform-company.ts) */
  companyId: number | null;
  action: AuditAction;
  actor: { id: number | null; name: string };
  ip: string;
  target?: { type: "user" | "contact"; id: number | null; label: string };
  details?: Record<string, unknown>;
}

export async function insertAudit(sql: Sql, r: AuditRecord): Promise<void> {
  await sql.exec(
    `INSERT INTO audit_log (company_id, action, actor_user_id, actor_name, ip, target_type, target_id, target_label, details)
     VALUES (${companyOrPlatform("$1")}, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [r.companyId, r.action, r.actor.id, r.actor.name.slice(0, 200), r.ip.slice(0, 100), r.target?.type ?? "", r.target?.id ?? null, (r.target?.label ?? "").slice(0, 300), JSON.stringify(r.details ?? {})],
  );
}

export interface AuditFilter {
  action?: AuditAction;
  /** YYYY-MM-DD in `timeZone`, inclusive */
  from?: string;
  to?: string;
  search: string;
  timeZone: string;
}

export async function pageAudit(sql: Sql, companyId: number, f: AuditFilter, limit: number, offset: number) {
  const params: unknown[] = [companyId];
  let where = "a.company_id = $1";
  if (f.action) {
    params.push(f.action);
    where += ` AND a.action = $${params.length}`;
  }
  if (f.from) {
    params.push(f.from, f.timeZone);
    where += ` AND a.created_at >= ($${params.length - 1}::date)::timestamp AT TIME ZONE $${params.length}`;
  }
  if (f.to) {
    params.push(f.to, f.timeZone);
    where += ` AND a.created_at < ($${params.length - 1}::date + 1)::timestamp AT TIME ZONE $${params.length}`;
  }
  if (f.search) {
    params.push(`%${likeEscape(f.search.toLowerCase())}%`);
    where += ` AND (lower(a.actor_name) LIKE $${params.length} OR lower(a.target_label) LIKE $${params.length})`;
  }
  const rows = await sql.many<AuditRow>(
    `SELECT a.id::text, a.action, a.actor_user_id, a.actor_name, a.ip, a.target_type, a.target_id, a.target_label, a.details, a.created_at
       FROM audit_log a WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    params,
  );
  const count = await sql.one<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a WHERE ${where}`, params);
  return { rows, count: count.n };
}
