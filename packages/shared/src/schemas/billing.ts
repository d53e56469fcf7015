import { z } from "zod";
import { RECURRENCE_MONTHS, type Recurrence } from "../enums.js";
import { isoDate, pageQuery } from "./common.js";

/** Billing (issue #17; spec 2-administration §3 Invoice and Checkout form, §4, §7). */

/** Invoices per page of `GET /invoices/all`. */
export const INVOICE_PAGE_SIZE = 20;
/** An invoice is issued this many days before the company's due date (or at once when already overdue). */
export const INVOICE_ISSUE_DAYS_AHEAD = 10;
/** How long an immediate Pix charge (cob) can be paid, `calendario.expiracao` in seconds. */
export const PIX_CHARGE_EXPIRATION_SECONDS = 3600;

/**
 * `date` (YYYY-MM-DD) plus `months` calendar months; a day the target month lacks becomes its last
 * day (31 Jan + 1 month = 28 or 29 Feb), as date-fns' addMonths does.
 */
export function addMonthsToDate(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The due date after one period of `recurrence` (MENSAL 1 month ... ANUAL 12); an unknown one counts as MENSAL. */
export function nextDueDate(dueDate: string, recurrence: string): string {
  return addMonthsToDate(dueDate, RECURRENCE_MONTHS[recurrence as Recurrence] ?? 1);
}

export type InvoiceDisplay = "paid" | "overdue" | "open";

/** §4: paid shows Pago; otherwise a due date before today shows Vencido (red row); else Em Aberto. */
export function invoiceDisplay(invoice: { status: string; dueDate: string }, today: string): InvoiceDisplay {
  if (invoice.status === "paid") return "paid";
  return invoice.dueDate < today ? "overdue" : "open";
}

export const invoiceStatus = z.enum(["open", "paid"]);

export const invoice = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string().optional().describe("Only in the super administrator's list of every company"),
  detail: z.string(),
  value: z.number().describe("BRL"),
  dueDate: isoDate,
  status: invoiceStatus,
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof invoice>;

export const invoicesQuery = pageQuery.extend({
  status: z.enum(["open", "paid", "overdue"]).optional().describe("Filter; overdue = open with a due date before today"),
  companyId: z.coerce.number().int().positive().optional().describe("Super administrators only: one company's invoices"),
});
export type InvoicesQuery = z.infer<typeof invoicesQuery>;

export const invoicesPage = z.object({ invoices: z.array(invoice), hasMore: z.boolean() });
export type InvoicesPage = z.infer<typeof invoicesPage>;

const text = (max: number) => z.string().trim().max(max).optional().default("");
const ignored = z.union([z.string().max(200), z.number()]).optional();

/** Step 1 messages of the checkout (spec §5). */
export const CHECKOUT_MSG = {
  firstName: "nome completo obrigatorio",
  address2: "Endereco obrigatorio",
  city: "Cidade obrigatoria",
  zipcode: "CEP obrigatorio",
  country: "Pais obrigatorio",
} as const;
export const CHECKOUT_COUNTRIES = ["BR", "usa"] as const;

const required = (msg: string, max = 200) => z.string({ error: msg }).trim().min(1, msg).max(max);

/**
 * POST /subscription (§7). Card fields and plan/price/users/connections are accepted for the spec's
 * form and ignored: the amount charged is the invoice's, decided by the server.
 */
export const subscriptionInput = z.object({
  firstName: required(CHECKOUT_MSG.firstName),
  lastName: text(200),
  address2: required(CHECKOUT_MSG.address2),
  city: required(CHECKOUT_MSG.city),
  state: text(100),
  zipcode: required(CHECKOUT_MSG.zipcode, 20),
  country: z.enum(CHECKOUT_COUNTRIES, { error: CHECKOUT_MSG.country }),
  useAddressForPaymentDetails: z.boolean().optional(),
  nameOnCard: ignored,
  cardNumber: ignored,
  cvv: ignored,
  plan: z.unknown().optional().describe("Ignored: the company's plan decides"),
  price: ignored,
  users: ignored,
  connections: ignored,
  invoiceId: z.coerce.number().int().positive().describe("The invoice to pay"),
});
export type SubscriptionInput = z.infer<typeof subscriptionInput>;

/** The Pix object of §7 (`qrcode.qrcode`, `valor.original`) plus what the page needs. */
export const pixCharge = z.object({
  txid: z.string(),
  invoiceId: z.number().int(),
  qrcode: z.object({ qrcode: z.string().describe("The BR Code (Pix copy-and-paste text), also the QR code content") }),
  valor: z.object({ original: z.string().describe("Amount in BRL, two decimals, e.g. 99.90") }),
  expiresAt: z.string(),
  status: z.string().describe("ATIVA, CONCLUIDA, EXPIRADA"),
  /** With the built-in sandbox PSP: the page that "pays" the charge (stands for the payer's bank app); else null. */
  sandboxPayPath: z.string().nullable(),
});
export type PixCharge = z.infer<typeof pixCharge>;

/** The payment event `company-{id}-payment` (spec §4): action CONCLUIDA with the new due date. */
export const paymentEvent = z.object({ action: z.literal("CONCLUIDA"), company: z.object({ id: z.number(), dueDate: isoDate }), invoiceId: z.number() });
export type PaymentEvent = z.infer<typeof paymentEvent>;

/** Sandbox PSP page: pay a charge by txid, optionally a different amount (to try a short payment). */
export const sandboxPixPayInput = z.object({ txid: z.string().regex(/^[a-zA-Z0-9]{26,35}$/), amount: z.coerce.number().positive().max(1_000_000).optional() });

/** GET /subscription: what the subscription page shows about the company's own plan. */
export const subscriptionSummary = z.object({
  companyName: z.string(),
  billingEmail: z.string().describe("The company's e-mail, where billing notices go"),
  dueDate: isoDate.nullable(),
  recurrence: z.string(),
  trial: z.boolean().describe("No invoice paid yet"),
  plan: z.object({ id: z.number(), name: z.string(), value: z.number(), users: z.number(), connections: z.number(), queues: z.number() }),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummary>;

/** Sign-up defaults when the super administrator has set nothing (docs/settings.md). */
export const SIGNUP_TRIAL_DAYS_DEFAULT = 7;
export const SIGNUP_TRIAL_DAYS_MAX = 90;

/**
 * GET/PUT /billing/signup-settings (super administrators): the trial a self-registered company gets
 * (its first due date is today plus these days; 0 = due today) and the plan the sign-up form selects
 * first (null: none preselected). GET /billing/signup-options gives the same to the public sign-up page.
 */
export const signupSettings = z.object({
  trialDays: z.coerce.number({ error: "Obrigatório" }).int().min(0).max(SIGNUP_TRIAL_DAYS_MAX).describe("Days of trial after sign-up"),
  planId: z.number().int().positive().nullable().describe("Plan preselected on sign-up; must be a plan with a value"),
});
export type SignupSettings = z.infer<typeof signupSettings>;

/** A pay link stays valid this many days after the later of its making and the invoice's due date. */
export const PAY_LINK_TTL_DAYS = 30;

/** The web page a pay link opens (public): `${PAY_LINK_PATH}/{token}`. */
export const PAY_LINK_PATH = "/pagar";

export const payLinkParam = z.object({ token: z.string().min(1).max(1000) });

/**
 * GET /public/invoices/{token}: what a signed pay link may see, and nothing more: the one invoice's
 * amount, due date and whether it is paid (no company name, no other invoice, no session).
 */
export const publicInvoice = z.object({
  value: z.number().describe("BRL"),
  dueDate: isoDate,
  status: invoiceStatus,
});
export type PublicInvoice = z.infer<typeof publicInvoice>;

/** POST /public/invoices/{token}/pix: the invoice and its Pix charge (QR code and copy-and-paste). */
export const publicInvoicePix = publicInvoice.extend({ pix: pixCharge });
export type PublicInvoicePix = z.infer<typeof publicInvoicePix>;

/** POST /invoices/issue ('Assine Agora!'): the invoice to pay now; null when the plan has no value. */
export const issueInvoiceResponse = z.object({ invoice: invoice.nullable() });
export type IssueInvoiceResponse = z.infer<typeof issueInvoiceResponse>;
