import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { createMailer, type Mailer } from "../../core/mailer.js";
import { payLinkUrl, signPayLink } from "./pay-link.js";
import { todayUtc } from "./today.js";

export const REMINDERS_JOB = "billing.invoice-reminders";
export const remindersPayload = z.object({ today: z.string().optional() }).passthrough();

type TimeKind = "due5" | "due1" | "overdue";
type Kind = "issued" | TimeKind;

interface DueRow {
  company_id: number;
  invoice_id: number;
  email: string;
  company_name: string;
  detail: string;
  value: number;
  due_date: string;
  days: number;
  kind: Kind;
  /** The reminder the date alone calls for (null: more than 5 days ahead). */
  time_kind: TimeKind | null;
}

const brl = (v: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(v);
const br = (d: string) => d.split("-").reverse().join("/");

function message(r: DueRow, payLink: string): { subject: string; text: string } {
  const what = `${r.detail} — ${brl(Number(r.value))}, vencimento ${br(r.due_date)}`;
  const pay = `Pague por Pix, sem precisar entrar no sistema: ${payLink}`;
  const when = r.days < 0 ? "está vencida" : r.days === 0 ? "vence hoje" : r.days === 1 ? "vence amanhã" : `vence em ${r.days} dias`;
  if (r.kind === "issued") {
    return { subject: `Nova fatura: ${r.company_name}`, text: `Olá,\n\nA fatura ${what} foi emitida e ${when}.\n\n${pay}\n` };
  }
  if (r.kind === "overdue") {
    return { subject: `Fatura vencida: ${r.company_name}`, text: `Olá,\n\nA fatura ${what} está vencida. O acesso da empresa fica bloqueado até o pagamento.\n\n${pay}\n` };
  }
  return { subject: `Sua fatura ${when}: ${r.company_name}`, text: `Olá,\n\nA fatura ${what} ${when}.\n\n${pay}\n` };
}

const DUE_SELECT = `
  SELECT * FROM (
    SELECT i.company_id, i.id AS invoice_id, c.email::text AS email, c.name AS company_name, i.detail, i.value,
           to_char(i.due_date, 'YYYY-MM-DD') AS due_date, (i.due_date - $1::date) AS days,
           CASE WHEN NOT EXISTS (SELECT 1 FROM invoice_reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.kind = 'issued') THEN 'issued'
                WHEN i.due_date < $1::date THEN 'overdue' WHEN i.due_date - $1::date <= 1 THEN 'due1' WHEN i.due_date - $1::date <= 5 THEN 'due5' END AS kind,
           CASE WHEN i.due_date < $1::date THEN 'overdue' WHEN i.due_date - $1::date <= 1 THEN 'due1' WHEN i.due_date - $1::date <= 5 THEN 'due5' END AS time_kind
      FROM invoices i JOIN companies c ON c.id = i.company_id
     WHERE i.status = 'open' AND c.email <> '' AND c.status AND NOT c.is_platform AND ($2::int IS NULL OR i.company_id = $2)) d
   WHERE kind IS NOT NULL AND NOT EXISTS (SELECT 1 FROM invoice_reminders r WHERE r.company_id = d.company_id AND r.invoice_id = d.invoice_id AND r.kind = d.kind)
   ORDER BY invoice_id LIMIT 500`;

/**
 * The invoice e-mails of open invoices, to the company's e-mail, each with the signed link to the
 * invoice's Pix page (payable without logging in, also after the due date): once when it is issued
 * ('issued', which also counts for the reminder its date calls for), 5 days before (or fewer, when the
 * invoice came later), 1 day before, and once overdue — each kind once per invoice. The reminder rows
 * are claimed first (their primary key makes a second process or run skip them), then the e-mail is
 * sent; a failed send releases the claim so the next run tries again. A crash between the two loses
 * that one e-mail rather than sending it twice. `companyId`: only that company's (after 'Assine Agora!').
 *
 * Billing mail is the platform's (no `companyId` for the sandbox mailbox): the platform bills the
 * company, whose admins may be locked out of their own mailbox page by the very due date it announces.
 */
export async function sendInvoiceReminders(ctx: AppContext, mailer: Mailer, today = todayUtc(), companyId: number | null = null): Promise<number> {
  const due = await ctx.sql.many<DueRow>(DUE_SELECT, [today, companyId]);
  let sent = 0;
  for (const r of due) {
    const kinds = r.kind === "issued" && r.time_kind ? [r.kind, r.time_kind] : [r.kind];
    const claimed = await ctx.sql.exec(
      "INSERT INTO invoice_reminders (company_id, invoice_id, kind) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING",
      [r.company_id, r.invoice_id, kinds],
    );
    if (!claimed) continue;
    try {
      const token = await signPayLink(ctx.config.jwtSecret, { companyId: r.company_id, invoiceId: r.invoice_id }, r.due_date);
      await mailer.send({ to: r.email, ...message(r, payLinkUrl(ctx.config.publicUrl, token)) });
      sent++;
    } catch (err) {
      ctx.log.warn({ err, companyId: r.company_id, invoiceId: r.invoice_id, kind: r.kind }, "billing: invoice e-mail failed; the next run tries again");
      await ctx.sql.exec("DELETE FROM invoice_reminders WHERE company_id = $1 AND invoice_id = $2 AND kind = ANY($3::text[])", [r.company_id, r.invoice_id, kinds]);
    }
  }
  return sent;
}

/**
 * The e-mails due now for one company's invoices, at once rather than at the job's next run: after
 * 'Assine Agora!' or a refused login issued an invoice. Runs after the answer; a failure is logged and
 * the hourly job sends what is still unsent.
 */
export function mailCompanyInvoicesSoon(ctx: AppContext, companyId: number): void {
  const mailer = createMailer(ctx.config, ctx.log, ctx.sql);
  void sendInvoiceReminders(ctx, mailer, todayUtc(), companyId).catch((err: unknown) =>
    ctx.log.warn({ err, companyId }, "billing: the company's invoice e-mails could not be sent now; the hourly job tries again"),
  );
}
