import { INVOICE_ISSUE_DAYS_AHEAD, INVOICE_PAGE_SIZE, type Invoice, type InvoicesPage, type InvoicesQuery } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import type { RequestActor } from "../../core/actor.js";
import { openInvoiceOf } from "./company-pay-link.js";
import { mailCompanyInvoicesSoon } from "./reminders.js";
import { presentInvoice } from "./presenter.js";
import * as repo from "./repository.js";
import { todayUtc } from "./today.js";

export const ISSUE_INVOICES_JOB = "billing.issue-invoices";
export const issueInvoicesPayload = z.object({ today: z.string().optional() }).passthrough();

/** The issuing job's work: idempotent, so a retry, a restart or two processes at once issue each invoice once. */
export async function issueInvoices(ctx: AppContext, today = todayUtc()): Promise<number> {
  const issued = await repo.issueDueInvoices(ctx.sql, today, INVOICE_ISSUE_DAYS_AHEAD);
  if (issued > 0) ctx.log.info({ issued, today }, "billing: invoices issued");
  return issued;
}

/**
 * POST /invoices/issue ('Assine Agora!'): the invoice the company pays now — its oldest open one,
 * after issuing the one of its current due date if the hourly job has not yet (a trial company right
 * after sign-up). The same insert as the job, keyed by (company, due date): pressing twice or racing
 * the job never makes two invoices for one period. A new invoice's e-mail (with its pay link) goes out
 * at once. Null when there is nothing to pay (a plan of no value).
 */
export async function issueOwnInvoice(ctx: AppContext, actor: RequestActor): Promise<{ invoice: Invoice | null }> {
  const row = await openInvoiceOf(ctx.sql, actor.companyId);
  if (row) mailCompanyInvoicesSoon(ctx, actor.companyId);
  return { invoice: row ? presentInvoice(row, false) : null };
}

/** GET /invoices/all: the company's invoices; the super administrator's list holds every company's. */
export async function listInvoices(ctx: AppContext, actor: RequestActor, q: InvoicesQuery): Promise<InvoicesPage> {
  const all = actor.super;
  const rows = await repo.listInvoices(ctx.sql, {
    companyId: all ? (q.companyId ?? null) : actor.companyId,
    search: q.searchParam,
    status: q.status,
    today: todayUtc(),
    limit: INVOICE_PAGE_SIZE + 1,
    offset: (q.pageNumber - 1) * INVOICE_PAGE_SIZE,
  });
  return { invoices: rows.slice(0, INVOICE_PAGE_SIZE).map((r) => presentInvoice(r, all)), hasMore: rows.length > INVOICE_PAGE_SIZE };
}
