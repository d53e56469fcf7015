import type {
  Invoice,
  InvoicesPage,
  IssueInvoiceResponse,
  PixCharge,
  PublicInvoice,
  PublicInvoicePix,
  PublicPlan,
  SubscriptionInput,
  SubscriptionSummary,
} from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export interface InvoiceFilters {
  search: string;
  status?: "open" | "paid" | "overdue";
}

export const billingKeys = {
  all: ["billing"] as const,
  summary: ["billing", "summary"] as const,
  invoices: ["billing", "invoices"] as const,
  invoiceList: (f: InvoiceFilters) => ["billing", "invoices", f.search, f.status ?? ""] as const,
  sandboxCharge: (txid: string) => ["billing", "sandbox", txid] as const,
  plans: ["billing", "plans"] as const,
  payLink: (token: string) => ["billing", "pay-link", token] as const,
};

/** 'Assine Agora!': the invoice to pay now, issued if the hourly job has not yet (null: nothing to pay). */
export function issueInvoice(): Promise<IssueInvoiceResponse> {
  return api<IssueInvoiceResponse>("/invoices/issue", { method: "POST" });
}

/** The public pay page of a signed pay link: the one invoice's amount, due date and status. */
export function fetchPublicInvoice(token: string, signal?: AbortSignal): Promise<PublicInvoice> {
  return api<PublicInvoice>(`/public/invoices/${encodeURIComponent(token)}`, { signal });
}

/** Its Pix charge (made, or the active one handed out again). */
export function chargePublicInvoice(token: string): Promise<PublicInvoicePix> {
  return api<PublicInvoicePix>(`/public/invoices/${encodeURIComponent(token)}/pix`, { method: "POST" });
}


export function fetchSubscription(signal?: AbortSignal): Promise<SubscriptionSummary> {
  return api<SubscriptionSummary>("/subscription", { signal });
}

/** One page of `GET /invoices/all` (20 a page; every company's for the super administrator). */
export async function fetchInvoicesPage(f: InvoiceFilters, pageNumber: number, signal?: AbortSignal): Promise<ListPage<Invoice>> {
  const res = await api<InvoicesPage>("/invoices/all", { query: { searchParam: f.search || undefined, status: f.status, pageNumber }, signal });
  return { items: res.invoices, hasMore: res.hasMore };
}

export function subscribe(input: SubscriptionInput): Promise<PixCharge> {
  return api<PixCharge>("/subscription", { method: "POST", body: input });
}

export interface SandboxCharge {
  txid: string;
  amount: string;
  chave: string;
  status: string;
  expiresAt: string;
  paidAt: string | null;
}

export function fetchSandboxCharge(txid: string, signal?: AbortSignal): Promise<SandboxCharge> {
  return api<SandboxCharge>(`/pix/sandbox/charges/${encodeURIComponent(txid)}`, { signal });
}

export function paySandboxCharge(txid: string, amount?: number): Promise<SandboxCharge> {
  return api<SandboxCharge>("/pix/sandbox/pay", { method: "POST", body: { txid, amount } });
}

export function fetchPlans(signal?: AbortSignal): Promise<PublicPlan[]> {
  return api<PublicPlan[]>("/plans/list", { signal });
}
