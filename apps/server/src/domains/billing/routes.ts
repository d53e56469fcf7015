import { timingSafeEqual } from "node:crypto";
import {
  invoicesPage,
  invoicesQuery,
  issueInvoiceResponse,
  payLinkParam,
  pixCharge,
  publicInvoice,
  publicInvoicePix,
  sandboxPixPayInput,
  signupSettings,
  subscriptionInput,
  subscriptionSummary,
} from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import { AppError } from "../../core/errors.js";
import { createMailer } from "../../core/mailer.js";
import { noBody } from "../../core/openapi.js";
import { chargeInvoice, checkout } from "./checkout.js";
import { pixDriverOf } from "./driver-of.js";
import { issueInvoices, issueInvoicesPayload, ISSUE_INVOICES_JOB, issueOwnInvoice, listInvoices } from "./invoices.js";
import { payLinkInvalid, verifyPayLink } from "./pay-link.js";
import { reconcileAll, reconcileCharge, reconcilePayload, RECONCILE_JOB } from "./payments.js";
import { SandboxPixDriver } from "./pix/sandbox-driver.js";
import * as repo from "./repository.js";
import { remindersPayload, REMINDERS_JOB, sendInvoiceReminders } from "./reminders.js";
import { readSignupSettings, saveSignupSettings } from "./signup-settings.js";

/** Company administrators (and the super administrator, who sees every company's invoices). */
const admins = { gate: { minProfile: "admin" as const } };
const superOnly = { gate: { superOnly: true } };

/** The PSP's webhook body (BCB Pix API): `{ pix: [{ endToEndId, txid, valor, horario, ... }] }`. */
const webhookBody = z
  .object({
    pix: z
      .array(z.object({ endToEndId: z.string().max(64), txid: z.string().max(64).optional(), valor: z.string().max(20), horario: z.string().max(64).optional() }).passthrough())
      .max(1000)
      .optional(),
  })
  .passthrough();

const sandboxCharge = z.object({ txid: z.string(), amount: z.string(), chave: z.string(), status: z.string(), expiresAt: z.string(), paidAt: z.string().nullable() });

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Billing (issue #17): invoices issued by a daily job, the Pix checkout of `/subscription`, the PSP's
 * webhook and a reconciliation job, and the built-in sandbox PSP's pay page API.
 */
export const billingRoutes: Domain = (api, ctx) => {
  const driver = pixDriverOf(ctx);

  ctx.jobs.define({ name: ISSUE_INVOICES_JOB, schema: issueInvoicesPayload, cron: "15 * * * *", concurrency: 1, batchSize: 1, handler: async (p) => void (await issueInvoices(ctx, p.today)) });
  const mailer = createMailer(ctx.config, api.log, ctx.sql);
  ctx.jobs.define({ name: REMINDERS_JOB, schema: remindersPayload, cron: "30 * * * *", concurrency: 1, batchSize: 1, handler: async (p) => void (await sendInvoiceReminders(ctx, mailer, p.today)) });
  if (driver) {
    ctx.jobs.define({ name: RECONCILE_JOB, schema: reconcilePayload, cron: "*/5 * * * *", concurrency: 1, batchSize: 1, handler: async () => void (await reconcileAll(ctx, driver)) });
  }
  if (driver && ctx.config.pix.registerWebhook) {
    api.addHook("onReady", async () => {
      const url = `${ctx.config.publicUrl.replace(/\/+$/, "")}/api/pix/webhook/${await repo.webhookSecret(ctx.sql, ctx.secrets)}`;
      await driver.registerWebhook(url).catch((err: unknown) => ctx.log.error({ err }, "billing: could not register the Pix webhook with the PSP (PUT /v2/webhook/{chave})"));
    });
  }

  api.get("/invoices/all", { config: admins, schema: { querystring: invoicesQuery, response: { 200: invoicesPage } } }, async (request) =>
    listInvoices(ctx, request.actor, request.query),
  );

  api.get("/subscription", { config: admins, schema: { response: { 200: subscriptionSummary } } }, async (request) => {
    const row = await repo.subscriptionSummary(ctx.sql, request.actor.companyId);
    if (!row) throw new AppError("ERR_NOT_FOUND");
    return {
      companyName: row.name,
      billingEmail: row.email,
      dueDate: row.due_date,
      recurrence: row.recurrence,
      trial: row.paid_invoices === 0,
      plan: { id: row.plan_id, name: row.plan_name, value: Number(row.plan_value), users: row.users, connections: row.connections, queues: row.queues },
    };
  });

  api.post("/invoices/issue", { config: { ...admins, ...noBody }, schema: { response: { 200: issueInvoiceResponse } } }, async (request) =>
    issueOwnInvoice(ctx, request.actor),
  );

  /** The super administrator's sign-up settings (trial days, plan selected first), and their public read for the sign-up form. */
  api.get("/billing/signup-settings", { config: superOnly, schema: { response: { 200: signupSettings } } }, async () => readSignupSettings(ctx.sql));
  api.put("/billing/signup-settings", { config: superOnly, schema: { body: signupSettings, response: { 200: signupSettings } } }, async (request) =>
    saveSignupSettings(ctx.sql, request.body),
  );
  api.get(
    "/billing/signup-options",
    { config: { public: true, rateLimit: { max: 60, timeWindow: "1 minute" } }, schema: { response: { 200: signupSettings } } },
    async () => readSignupSettings(ctx.sql),
  );

  /**
   * The public pay page of a signed pay link (login refusal after the due date, invoice e-mails): the
   * one invoice's amount, due date and status, and its Pix charge. No session is made; a forged,
   * altered or expired token, or one naming another company's invoice, is ERR_PAY_LINK_INVALID.
   */
  const linkedInvoice = async (token: string) => {
    const claims = await verifyPayLink(ctx.config.jwtSecret, token);
    const row = await repo.findInvoice(ctx.sql, claims.companyId, claims.invoiceId);
    if (!row) throw payLinkInvalid();
    return { claims, invoice: { value: Number(row.value), dueDate: row.due_date, status: row.status } };
  };
  const payLinkLimit = { public: true, rateLimit: { max: 30, timeWindow: "1 minute" } };
  const payLinkPost = { ...payLinkLimit, ...noBody };
  api.get("/public/invoices/:token", { config: payLinkLimit, schema: { params: payLinkParam, response: { 200: publicInvoice } } }, async (request) =>
    (await linkedInvoice(request.params.token)).invoice,
  );
  api.post("/public/invoices/:token/pix", { config: payLinkPost, schema: { params: payLinkParam, response: { 200: publicInvoicePix } } }, async (request) => {
    const { claims, invoice } = await linkedInvoice(request.params.token);
    const pix = await chargeInvoice(ctx, driver, claims.companyId, claims.invoiceId);
    return { ...invoice, pix };
  });

  api.post("/subscription", { config: admins, schema: { body: subscriptionInput, response: { 200: pixCharge } } }, async (request) =>
    checkout(ctx, driver, request.actor, request.body),
  );

  /** The webhook URL to register with the PSP (super administrators): it carries the installation's secret. */
  api.get("/pix/webhook-url", { config: superOnly, schema: { response: { 200: z.object({ url: z.string(), provider: z.string() }) } } }, async () => ({
    url: `${ctx.config.publicUrl.replace(/\/+$/, "")}/api/pix/webhook/${await repo.webhookSecret(ctx.sql, ctx.secrets)}`,
    provider: ctx.config.pix.provider,
  }));

  // The BCB API posts to the registered URL with "/pix" appended; both forms are accepted.
  for (const url of ["/pix/webhook/:secret", "/pix/webhook/:secret/pix"]) {
    api.post(
      url,
      {
        config: { public: true, rateLimit: { max: 600, timeWindow: "1 minute" } },
        schema: { params: z.object({ secret: z.string().max(200) }), body: webhookBody, response: { 200: z.object({ received: z.number() }) } },
      },
      async (request) => {
        if (!sameSecret(request.params.secret, await repo.webhookSecret(ctx.sql, ctx.secrets))) throw new AppError("ERR_NOT_FOUND");
        const txids = [...new Set((request.body.pix ?? []).map((p) => p.txid).filter((t): t is string => !!t))];
        for (const txid of txids) {
          // the webhook only names the charge: the PSP's own answer decides what was paid
          if (!driver) break;
          await reconcileCharge(ctx, driver, txid).catch((err: unknown) =>
            request.log.warn({ err, txid }, "billing: webhook could not be checked with the PSP now; the reconciliation job retries"),
          );
        }
        return { received: txids.length };
      },
    );
  }

  if (driver instanceof SandboxPixDriver && ctx.config.enableSandbox) {
    const sandbox = driver;
    const present = (r: NonNullable<Awaited<ReturnType<SandboxPixDriver["find"]>>>) => ({
      txid: r.txid,
      amount: Number(r.amount).toFixed(2),
      chave: r.chave,
      status: r.status,
      expiresAt: r.expires_at.toISOString(),
      paidAt: r.paid_at ? r.paid_at.toISOString() : null,
    });
    /** The sandbox PSP's page (standing for the payer's bank app): anyone holding the charge's txid. */
    api.get(
      "/pix/sandbox/charges/:txid",
      { config: { public: true }, schema: { params: z.object({ txid: z.string().max(64) }), response: { 200: sandboxCharge } } },
      async (request) => {
        const row = await sandbox.find(request.params.txid);
        if (!row) throw new AppError("ERR_PIX_CHARGE_NOT_FOUND");
        return present(row);
      },
    );
    api.post(
      "/pix/sandbox/pay",
      { config: { public: true, rateLimit: { max: 30, timeWindow: "1 minute" } }, schema: { body: sandboxPixPayInput, response: { 200: sandboxCharge } } },
      async (request) => {
        const paid = await sandbox.pay(request.body.txid, request.body.amount);
        if (!paid) {
          const row = await sandbox.find(request.body.txid);
          if (!row) throw new AppError("ERR_PIX_CHARGE_NOT_FOUND");
          throw new AppError("ERR_PIX_CHARGE_NOT_PAYABLE", `Cobrança ${row.status}`);
        }
        // as a real PSP would call the webhook: the same path, checked against the PSP's state
        await reconcileCharge(ctx, sandbox, paid.txid);
        return present(paid);
      },
    );
  }
};
