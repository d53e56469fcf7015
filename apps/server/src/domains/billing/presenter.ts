import type { Invoice, PixCharge } from "@atende/shared";
import type { ChargeRow, InvoiceRow } from "./repository.js";

export function presentInvoice(row: InvoiceRow, withCompany: boolean): Invoice {
  return {
    id: row.id,
    companyId: row.company_id,
    ...(withCompany && row.company_name !== undefined ? { companyName: row.company_name } : {}),
    detail: row.detail,
    value: Number(row.value),
    dueDate: row.due_date,
    status: row.status,
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}

export function presentCharge(row: ChargeRow, sandbox: boolean): PixCharge {
  return {
    txid: row.txid,
    invoiceId: row.invoice_id,
    qrcode: { qrcode: row.brcode },
    valor: { original: Number(row.amount).toFixed(2) },
    expiresAt: row.expires_at.toISOString(),
    status: row.status,
    sandboxPayPath: sandbox ? `/pix-sandbox/${row.txid}` : null,
  };
}
