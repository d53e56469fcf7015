import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import type { Mailer } from "../../core/mailer.js";
import { todayUtc } from "./today.js";

export const REMINDERS_JOB = "billing.invoice-reminders";
export const remindersPayload = z.object({ today: z.string().optional() }).passthrough();

type Kind = "due5" | "due1" | "overdue";

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
}

const brl = (v: number) => new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(v);
const br = (d: string) => d.split("-").reverse().join("/");

function message(r: DueRow, publicUrl: string): { subject: string; text: string } {
  const link = `${publicUrl.replace(/\/+$/, "")}/subscription`;
  const what = `${r.detail} — ${brl(Number(r.value))}, vencimento ${br(r.due_date)}`;
  if (r.kind === "overdue") {
    return { subject: `Fatura vencida: ${r.company_name}`, text: `Olá,\n\nA fatura ${what} está vencida. O acesso da empresa fica bloqueado até o pagamento.\n\nPague por Pix em ${link}\n` };
  }
  const when = r.days === 0 ? "vence hoje" : r.days === 1 ? "vence amanhã" : `vence em ${r.days} dias`;
  return { subject: `Sua fatura ${when}: ${r.company_name}`, text: `Olá,\n\nA fatura ${what} ${when}.\n\nPague por Pix em ${link}\n` };
}

/**
 * The reminder e-mails of open invoices, to the company's e-mail: 5 days before (or fewer, when the
 * invoice came later), 1 day before, and once overdue — each kind once per invoice. The reminder row is
 * claimed first (its primary key makes a second process or run skip it), then the e-mail is sent; a
 * failed send releases the claim so the next run tries again. A crash between the two loses that one
 * reminder rather than sending it twice.
 */
export async function sendInvoiceReminders(ctx: AppContext, mailer: Mailer, today = todayUtc()): Promise<number> {
  const due = await ctx.sql.many<DueRow>(
    `SELECT * FROM (
       SELECT i.company_id, i.id AS invoice_id, c.email::text AS email, c.name AS company_name, i.detail, i.value,
              to_char(i.due_date, 'YYYY-MM-DD') AS due_date, (i.due_date - $1::date) AS days,
              CASE WHEN i.due_date < $1::date THEN 'overdue' WHEN i.due_date - $1::date <= 1 THEN 'due1' WHEN i.due_date - $1::date <= 5 THEN 'due5' END AS kind
         FROM invoices i JOIN companies c ON c.id = i.company_id
        WHERE i.status = 'open' AND c.email <> '' AND c.status AND NOT c.is_platform) d
      WHERE kind IS NOT NULL AND NOT EXISTS (SELECT 1 FROM invoice_reminders r WHERE r.invoice_id = d.invoice_id AND r.kind = d.kind)
      ORDER BY invoice_id LIMIT 500`,
    [today],
  );
  let sent = 0;
  for (const r of due) {
    const claimed = await ctx.sql.exec("INSERT INTO invoice_reminders (company_id, invoice_id, kind) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [r.company_id, r.invoice_id, r.kind]);
    if (!claimed) continue;
    try {
      await mailer.send({ to: r.email, companyId: r.company_id, ...message(r, ctx.config.publicUrl) });
      sent++;
    } catch (err) {
      ctx.log.warn({ err, companyId: r.company_id, invoiceId: r.invoice_id, kind: r.kind }, "billing: invoice reminder e-mail failed; the next run tries again");
      await ctx.sql.exec("DELETE FROM invoice_reminders WHERE invoice_id = $1 AND kind = $2", [r.invoice_id, r.kind]);
    }
  }
  return sent;
}
