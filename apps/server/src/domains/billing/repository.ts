import { PIX_WEBHOOK_SECRET_PLACE } from "../../core/secrets/columns.js";
import type { SecretSealer } from "../../core/secrets/sealer.js";
import type { Sql } from "../../db/sql.js";

export interface InvoiceRow {
  id: number;
  company_id: number;
  company_name?: string;
  due_date: string;
  recurrence: string;
  detail: string;
  value: number;
  status: "open" | "paid";
  paid_at: Date | null;
  created_at: Date;
}

export interface ChargeRow {
  id: number;
  company_id: number;
  invoice_id: number;
  txid: string;
  amount: number;
  brcode: string;
  status: string;
  expires_at: Date;
}

const INVOICE_COLUMNS = "i.id, i.company_id, to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.recurrence, i.detail, i.value, i.status, i.paid_at, i.created_at";

/**
 * Issues the invoice of every company whose due date is within `daysAhead` days (or past) and has
 * none for it yet: one statement, and the unique (company_id, due_date) key makes a second run — or a
 * second process at the same moment, or 'Assine Agora!' pressed meanwhile — insert nothing. The
 * platform company, companies without a due date and plans of value 0 are not billed; the value is the
 * plan's monthly value times the months of the company's recurrence. With `companyId`, only that
 * company, and `daysAhead` null = whatever its due date ('Assine Agora!').
 */
export async function issueDueInvoices(sql: Sql, today: string, daysAhead: number | null, companyId: number | null = null): Promise<number> {
  return sql.exec(
    `INSERT INTO invoices (company_id, due_date, recurrence, detail, value)
     SELECT c.id, c.due_date, c.recurrence,
            p.name || ' — ' || c.recurrence || ' — ' || to_char(c.due_date, 'DD/MM/YYYY'),
            p.value * CASE c.recurrence WHEN 'BIMESTRAL' THEN 2 WHEN 'TRIMESTRAL' THEN 3 WHEN 'SEMESTRAL' THEN 6 WHEN 'ANUAL' THEN 12 ELSE 1 END
       FROM companies c JOIN plans p ON p.id = c.plan_id
      WHERE NOT c.is_platform AND c.status AND c.due_date IS NOT NULL AND p.value > 0
        AND ($2::int IS NULL OR c.due_date <= $1::date + $2::int)
        AND ($3::int IS NULL OR c.id = $3)
     ON CONFLICT (company_id, due_date) DO NOTHING`,
    [today, daysAhead, companyId],
  );
}

/** The company's oldest open invoice (an overdue one before the next period's), or null. */
export async function oldestOpenInvoice(sql: Sql, companyId: number): Promise<InvoiceRow | null> {
  return sql.maybe<InvoiceRow>(
    `SELECT ${INVOICE_COLUMNS} FROM invoices i WHERE i.company_id = $1 AND i.status = 'open' ORDER BY i.due_date, i.id LIMIT 1`,
    [companyId],
  );
}

export interface InvoiceFilter {
  companyId: number | null;
  search: string;
  status?: "open" | "paid" | "overdue";
  today: string;
  limit: number;
  offset: number;
}

/** One company's invoices, or every company's (companyId null, for the super administrator). */
export async function listInvoices(sql: Sql, f: InvoiceFilter): Promise<InvoiceRow[]> {
  const where = ["($1::int IS NULL OR i.company_id = $1)"];
  const params: unknown[] = [f.companyId, f.limit, f.offset];
  if (f.search.trim()) {
    params.push(`%${f.search.trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where.push(`(i.detail ILIKE $${params.length} OR c.name ILIKE $${params.length})`);
  }
  if (f.status) {
    params.push(f.today);
    const today = `$${params.length}::date`;
    where.push(f.status === "paid" ? "i.status = 'paid'" : f.status === "overdue" ? `i.status = 'open' AND i.due_date < ${today}` : `i.status = 'open' AND i.due_date >= ${today}`);
  }
  return sql.many<InvoiceRow>(
    `SELECT ${INVOICE_COLUMNS}, c.name AS company_name FROM invoices i JOIN companies c ON c.id = i.company_id
      WHERE ${where.join(" AND ")} ORDER BY i.due_date DESC, i.id DESC LIMIT $2 OFFSET $3`,
    params,
  );
}

export async function findInvoice(sql: Sql, companyId: number, invoiceId: number, o: { lock?: boolean } = {}): Promise<InvoiceRow | null> {
  return sql.maybe<InvoiceRow>(`SELECT ${INVOICE_COLUMNS} FROM invoices i WHERE i.company_id = $1 AND i.id = $2${o.lock ? " FOR UPDATE" : ""}`, [companyId, invoiceId]);
}

/** The invoice's newest charge still payable for at least `marginSeconds` more, of the invoice's value. */
export async function findPayableCharge(sql: Sql, companyId: number, invoiceId: number, amount: number, marginSeconds: number): Promise<ChargeRow | null> {
  return sql.maybe<ChargeRow>(
    `SELECT * FROM pix_charges WHERE company_id = $1 AND invoice_id = $2 AND status = 'ATIVA' AND amount = $3::numeric
        AND expires_at > now() + make_interval(secs => $4) ORDER BY created_at DESC LIMIT 1`,
    [companyId, invoiceId, amount, marginSeconds],
  );
}

export async function insertCharge(sql: Sql, c: { companyId: number; invoiceId: number; txid: string; amount: string; brcode: string; status: string; expiresAt: Date }): Promise<ChargeRow> {
  return sql.one<ChargeRow>(
    `INSERT INTO pix_charges (company_id, invoice_id, txid, amount, brcode, status, expires_at) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING *`,
    [c.companyId, c.invoiceId, c.txid, c.amount, c.brcode, c.status, c.expiresAt],
  );
}

export async function findChargeByTxid(sql: Sql, txid: string): Promise<ChargeRow | null> {
  return sql.maybe<ChargeRow>("SELECT * FROM pix_charges WHERE txid = $1", [txid]);
}

export async function setChargeStatus(sql: Sql, companyId: number, txid: string, status: string): Promise<void> {
  await sql.exec("UPDATE pix_charges SET status = $3 WHERE company_id = $1 AND txid = $2", [companyId, txid, status]);
}

/** Charges the reconciliation asks the PSP about: active ones, and expired ones of the last day (a late webhook). */
export async function chargesToReconcile(sql: Sql, limit: number): Promise<ChargeRow[]> {
  return sql.many<ChargeRow>(
    `SELECT * FROM pix_charges WHERE status = 'ATIVA' AND expires_at > now() - interval '1 day' ORDER BY created_at LIMIT $1`,
    [limit],
  );
}

export async function expireOldCharges(sql: Sql): Promise<number> {
  return sql.exec("UPDATE pix_charges SET status = 'EXPIRADA' WHERE status = 'ATIVA' AND expires_at <= now() - interval '1 day'");
}

/** Records a payment once per end-to-end id; false when it was already recorded. */
export async function recordPayment(sql: Sql, p: { endToEndId: string; companyId: number; invoiceId: number; txid: string; amount: string; applied: boolean; paidAt: string | null }): Promise<boolean> {
  const n = await sql.exec(
    `INSERT INTO pix_payments (end_to_end_id, company_id, invoice_id, txid, amount, applied, paid_at) VALUES ($1,$2,$3,$4,$5,$6,$7)
     ON CONFLICT (company_id, end_to_end_id) DO NOTHING`,
    [p.endToEndId, p.companyId, p.invoiceId, p.txid, p.amount, p.applied, p.paidAt],
  );
  return n === 1;
}

export async function markInvoicePaid(sql: Sql, companyId: number, invoiceId: number): Promise<void> {
  await sql.exec("UPDATE invoices SET status = 'paid', paid_at = now(), updated_at = now() WHERE company_id = $1 AND id = $2", [companyId, invoiceId]);
}

export async function lockCompany(sql: Sql, companyId: number): Promise<{ due_date: string | null; recurrence: string } | null> {
  return sql.maybe("SELECT to_char(due_date, 'YYYY-MM-DD') AS due_date, recurrence FROM companies WHERE id = $1 FOR UPDATE", [companyId]);
}

export async function setCompanyDueDate(sql: Sql, companyId: number, dueDate: string): Promise<void> {
  await sql.exec("UPDATE companies SET due_date = $2, updated_at = now() WHERE id = $1", [companyId, dueDate]);
}

/** The installation's webhook path secret, opened (sealed at rest: core/secrets). */
export async function webhookSecret(sql: Sql, secrets: SecretSealer): Promise<string> {
  return secrets.open(PIX_WEBHOOK_SECRET_PLACE, (await sql.one<{ secret: string }>("SELECT secret FROM pix_webhook_secret")).secret);
}

export interface SummaryRow {
  name: string;
  email: string;
  due_date: string | null;
  recurrence: string;
  paid_invoices: number;
  plan_id: number;
  plan_name: string;
  plan_value: number;
  users: number;
  connections: number;
  queues: number;
}

export async function subscriptionSummary(sql: Sql, companyId: number): Promise<SummaryRow | null> {
  return sql.maybe<SummaryRow>(
    `SELECT c.name, c.email, to_char(c.due_date, 'YYYY-MM-DD') AS due_date, c.recurrence,
            (SELECT count(*)::int FROM invoices i WHERE i.company_id = c.id AND i.status = 'paid') AS paid_invoices,
            p.id AS plan_id, p.name AS plan_name, p.value AS plan_value, p.users, p.connections, p.queues
       FROM companies c JOIN plans p ON p.id = c.plan_id WHERE c.id = $1`,
    [companyId],
  );
}
