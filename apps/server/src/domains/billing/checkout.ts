import { randomBytes } from "node:crypto";
import { PIX_CHARGE_EXPIRATION_SECONDS, type PixCharge, type SubscriptionInput } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import type { RequestActor } from "../../core/actor.js";
import { PixUnavailable, type PixDriver } from "./pix/driver.js";
import { presentCharge } from "./presenter.js";
import * as repo from "./repository.js";

/** A charge about to expire is not handed out again: a new one is made (the pay button renews it). */
const REUSE_MARGIN_SECONDS = 120;

/** A txid of the BCB API for immediate charges: 26 to 35 letters and digits; 32 random ones here. */
export function newTxid(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(randomBytes(32), (b) => alphabet[b % alphabet.length]).join("");
}

/**
 * POST /subscription: the Pix charge of one of the company's open invoices. The amount is the
 * invoice's (issued by the server from the plan and recurrence); the form's plan, price, users,
 * connections and card fields never change it and are not stored. An active charge of the same amount
 * is returned again (two clicks do not make two payable charges); an expired one is renewed. The
 * invoice row stays locked while the PSP makes the charge, so concurrent clicks wait for the first.
 */
export async function checkout(ctx: AppContext, driver: PixDriver | null, actor: RequestActor, input: SubscriptionInput): Promise<PixCharge> {
  return chargeInvoice(ctx, driver, actor.companyId, input.invoiceId);
}

/**
 * The Pix charge of one open invoice of the company: the checkout's, and the public pay page's (a
 * signed pay link names the company and the invoice).
 */
export async function chargeInvoice(ctx: AppContext, driver: PixDriver | null, companyId: number, invoiceId: number): Promise<PixCharge> {
  if (!driver) throw new AppError("ERR_PIX_UNAVAILABLE", "Pagamento por Pix não configurado neste servidor");
  const row = await ctx.sql.tx(async (sql) => {
    const invoice = await repo.findInvoice(sql, companyId, invoiceId, { lock: true });
    if (!invoice) throw new AppError("ERR_INVOICE_NOT_FOUND");
    if (invoice.status === "paid") throw new AppError("ERR_INVOICE_ALREADY_PAID", "Esta fatura já foi paga");
    const reusable = await repo.findPayableCharge(sql, companyId, invoice.id, invoice.value, REUSE_MARGIN_SECONDS);
    if (reusable) return reusable;
    const txid = newTxid();
    const amount = Number(invoice.value);
    let created;
    try {
      created = await driver.createCharge({ txid, amount, expiresInSeconds: PIX_CHARGE_EXPIRATION_SECONDS, description: `Fatura ${invoice.id} — ${invoice.detail}` });
    } catch (err) {
      ctx.log.error({ err, companyId, invoiceId: invoice.id, psp: driver.name }, "billing: the PSP could not make a Pix charge");
      throw new AppError("ERR_PIX_UNAVAILABLE", err instanceof PixUnavailable ? err.message : "O provedor Pix não respondeu; tente novamente");
    }
    return repo.insertCharge(sql, { companyId, invoiceId: invoice.id, txid, amount: amount.toFixed(2), brcode: created.brcode, status: created.status, expiresAt: created.expiresAt });
  });
  ctx.log.info({ companyId, invoiceId, txid: row.txid }, "billing: Pix checkout");
  return presentCharge(row, ctx.config.pix.provider === "sandbox");
}
