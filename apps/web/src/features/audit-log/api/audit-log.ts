import type { AuditAction, AuditLogPage } from "@atende/shared";
import { api } from "../../../lib/api";

export interface AuditLogFilters {
  action: AuditAction | "";
  /** yyyy-MM-dd or "" */
  from: string;
  to: string;
  searchParam: string;
}

export const auditLogKeys = {
  all: ["audit-log"] as const,
  page: (f: AuditLogFilters, pageNumber: number) => [...auditLogKeys.all, f, pageNumber] as const,
};

/** GET /audit-log: newest first, 50 a page; empty filters are left out. */
export function fetchAuditLog(f: AuditLogFilters, pageNumber: number, signal?: AbortSignal): Promise<AuditLogPage> {
  const date = (d: string) => (/^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined);
  return api<AuditLogPage>("/audit-log", {
    signal,
    query: { pageNumber, action: f.action || undefined, from: date(f.from), to: date(f.to), searchParam: f.searchParam.trim() || undefined },
  });
}
