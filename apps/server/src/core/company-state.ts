import { AppError } from "./errors.js";

/** What decides whether a company may be used: its status flag, due date and platform mark. */
export interface CompanyState {
  status: boolean;
  dueDate: string | null;
  isPlatform: boolean;
}

/** Whole days from today (UTC) until the due date; negative when it has passed. */
export function daysUntil(dueDate: string, today = new Date()): number {
  const due = Date.parse(`${dueDate}T00:00:00Z`);
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.round((due - start) / 86_400_000);
}

/**
 * The one rule for every way in (login, refresh, each API request, socket handshake and re-check,
 * the external messages API): an inactive company is refused, and so is one whose due date has
 * passed, with the date (spec 1-core §4). The platform company is never refused, so the super
 * administrators cannot lock themselves out.
 */
export function companyRefusal(company: CompanyState, today = new Date()): AppError | null {
  if (company.isPlatform) return null;
  if (!company.status) return new AppError("ERR_COMPANY_INACTIVE", "Empresa inativa. Entre em contato com o suporte.");
  if (company.dueDate && daysUntil(company.dueDate, today) < 0) {
    return new AppError("ERR_SUBSCRIPTION_EXPIRED", `Sua assinatura venceu em ${company.dueDate}`, { dueDate: company.dueDate });
  }
  return null;
}

export function assertCompanyUsable(company: CompanyState): void {
  const refusal = companyRefusal(company);
  if (refusal) throw refusal;
}
