import { channel, nextDueDate, type PaymentEvent } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { rooms } from "../../core/realtime.js";
import type { PixDriver, PixReceived } from "./pix/driver.js";
import * as repo from "./repository.js";
import { todayUtc } from "./today.js";

export const RECONCILE_JOB = "billing.reconcile-pix";
export const reconcilePayload = z.object({}).passthrough();
const RECONCILE_BATCH = 200;

export type PaymentOutcome = "paid" | "duplicate" | "short" | "already-paid" | "unknown-charge";

const cents = (v: string | number) => Math.round(Number(v) * 100);

/**
 * Applies one payment the PSP reported for one of our charges, once per end-to-end id: a payment that
 * covers the invoice marks it paid and moves the company's due date one period of its recurrence from
 * the later of today and the current due date (which also lifts the block of a company past its due
 * date); a short payment is recorded and changes nothing. The admins get `company-{id}-payment`.
 */
export async function applyPayment(ctx: AppContext, pix: PixReceived): Promise<PaymentOutcome> {
  const result = await ctx.sql.tx(async (sql) => {
    const charge = await repo.findChargeByTxid(sql, pix.txid);
    if (!charge) return { outcome: "unknown-charge" as const };
    const invoice = await repo.findInvoice(sql, charge.company_id, charge.invoice_id, { lock: true });
    if (!invoice) return { outcome: "unknown-charge" as const };
    const covers = cents(pix.valor) >= cents(invoice.value);
    const applies = covers && invoice.status === "open";
    const recorded = await repo.recordPayment(sql, {
      endToEndId: pix.endToEndId,
      companyId: charge.company_id,
      invoiceId: invoice.id,
      txid: charge.txid,
      amount: Number(pix.valor).toFixed(2),
      applied: applies,
      paidAt: pix.horario ?? null,
    });
    if (!recorded) return { outcome: "duplicate" as const };
    await repo.setChargeStatus(sql, charge.company_id, charge.txid, "CONCLUIDA");
    if (!covers) return { outcome: "short" as const, charge, invoice };
    if (!applies) return { outcome: "already-paid" as const, charge, invoice };
    await repo.markInvoicePaid(sql, charge.company_id, invoice.id);
    const company = await repo.lockCompany(sql, charge.company_id);
    const today = todayUtc();
    const from = company?.due_date && company.due_date > today ? company.due_date : today;
    const dueDate = nextDueDate(from, company?.recurrence ?? invoice.recurrence);
    await repo.setCompanyDueDate(sql, charge.company_id, dueDate);
    return { outcome: "paid" as const, charge, invoice, dueDate };
  });
  const log = { txid: pix.txid, endToEndId: pix.endToEndId, valor: pix.valor, outcome: result.outcome };
  if (result.outcome === "paid") {
    ctx.log.info(log, "billing: invoice paid by Pix");
    const event: PaymentEvent = { action: "CONCLUIDA", company: { id: result.charge.company_id, dueDate: result.dueDate }, invoiceId: result.invoice.id };
    ctx.realtime.emit(rooms.profile(result.charge.company_id, "admin"), channel.payment(result.charge.company_id), event);
  } else if (result.outcome === "short" || result.outcome === "already-paid") {
    ctx.log.warn({ ...log, invoiceId: result.invoice.id, invoiceValue: result.invoice.value }, "billing: a Pix payment did not pay its invoice (short, or the invoice was already paid): refund or follow up by hand");
  } else if (result.outcome === "unknown-charge") {
    ctx.log.warn(log, "billing: the PSP reported a payment for a charge this server does not know");
  }
  return result.outcome;
}

/**
 * Asks the PSP about one of our charges and applies every payment it reports. Webhooks and the
 * reconciliation job both come here: what a webhook says is only a hint, the PSP's answer decides,
 * so a forged webhook pays nothing.
 */
export async function reconcileCharge(ctx: AppContext, driver: PixDriver, txid: string): Promise<PaymentOutcome[]> {
  const ours = await repo.findChargeByTxid(ctx.sql, txid);
  if (!ours) return ["unknown-charge"];
  const state = await driver.getCharge(txid);
  if (!state) {
    ctx.log.warn({ txid }, "billing: the PSP does not know a charge this server made");
    return [];
  }
  const outcomes: PaymentOutcome[] = [];
  for (const pix of state.pix) {
    if (pix.txid && pix.txid !== txid) continue;
    outcomes.push(await applyPayment(ctx, { ...pix, txid }));
  }
  if (!state.pix.length && state.status !== "ATIVA" && state.status !== ours.status) {
    await repo.setChargeStatus(ctx.sql, ours.company_id, txid, state.status);
  }
  return outcomes;
}

/** The reconciliation job: every active charge (and those expired within a day) checked with the PSP. */
export async function reconcileAll(ctx: AppContext, driver: PixDriver): Promise<number> {
  const charges = await repo.chargesToReconcile(ctx.sql, RECONCILE_BATCH);
  for (const c of charges) {
    try {
      await reconcileCharge(ctx, driver, c.txid);
    } catch (err) {
      ctx.log.warn({ err, txid: c.txid, companyId: c.company_id }, "billing: could not reconcile a Pix charge; the next run tries again");
    }
  }
  await repo.expireOldCharges(ctx.sql);
  return charges.length;
}
