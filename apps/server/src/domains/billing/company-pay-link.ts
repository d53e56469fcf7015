import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";
import { payLinkUrl, signPayLink } from "./pay-link.js";
import { mailCompanyInvoicesSoon } from "./reminders.js";
import * as repo from "./repository.js";
import { todayUtc } from "./today.js";

/**
 * The pay link of the company's oldest open invoice, issuing the invoice of its current due date
 * first when none was issued yet (the same idempotent insert as the hourly job), whose e-mail then
 * goes out. Null when there is nothing to pay (a plan of no value, an inactive company).
 */
export async function companyPayLink(ctx: AppContext, companyId: number): Promise<string | null> {
  const invoice = await openInvoiceOf(ctx.sql, companyId);
  if (!invoice) return null;
  // the invoice e-mail (with this same kind of link) goes out now if it has not yet
  mailCompanyInvoicesSoon(ctx, companyId);
  return payLinkUrl(ctx.config.publicUrl, await signPayLink(ctx.config.jwtSecret, { companyId, invoiceId: invoice.id }, invoice.due_date));
}

/** The company's oldest open invoice, after issuing the one of its current due date if missing. */
export async function openInvoiceOf(sql: Sql, companyId: number): Promise<repo.InvoiceRow | null> {
  await repo.issueDueInvoices(sql, todayUtc(), null, companyId);
  return repo.oldestOpenInvoice(sql, companyId);
}
