import type { AuditLogPage, AuditLogQuery } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";
import { presentAudit } from "./presenter.js";
import * as repo from "./repository.js";

export type { AuditRecord } from "./repository.js";

const PAGE = 50;

/**
 * Adds one line to the audit log. Called inside the action's transaction where there is one, so the
 * line exists exactly when the action happened.
 */
export function recordAudit(sql: Sql, record: repo.AuditRecord): Promise<void> {
  return repo.insertAudit(sql, record);
}

export async function pageAuditLog(ctx: AppContext, companyId: number, q: AuditLogQuery): Promise<AuditLogPage> {
  const { time_zone: timeZone } = await ctx.sql.one<{ time_zone: string }>("SELECT time_zone FROM companies WHERE id = $1", [companyId]);
  const offset = (q.pageNumber - 1) * PAGE;
  const { rows, count } = await repo.pageAudit(ctx.sql, companyId, { action: q.action, from: q.from, to: q.to, search: q.searchParam, timeZone }, PAGE, offset);
  return { entries: rows.map(presentAudit), count, hasMore: count > offset + rows.length };
}
