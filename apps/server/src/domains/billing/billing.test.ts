import { addMonthsToDate, nextDueDate } from "@atende/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { issueInvoices } from "./invoices.js";
import { todayUtc } from "./today.js";
import { webhookSecret } from "./repository.js";
import { expectEvery } from "../../../test/expect-every.js";

let app: TestApp;
let secret: string;

beforeAll(async () => {
  app = await createTestApp();
  secret = await webhookSecret(app.sql, app.ctx.secrets);
});
afterAll(async () => {
  await app.close();
});

const today = todayUtc();
const inDays = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** A company on a plan of `value` a month, due in `dueInDays`, with its invoice issued. */
async function billedTenant(o: { value?: number; dueInDays?: number; recurrence?: string } = {}) {
  const t = await buildTenant(app, { dueDate: inDays(o.dueInDays ?? 5) });
  await app.sql.exec("UPDATE plans SET value = $2 WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [t.companyId, o.value ?? 99.9]);
  await app.sql.exec("UPDATE companies SET recurrence = $2 WHERE id = $1", [t.companyId, o.recurrence ?? "MENSAL"]);
  await issueInvoices(app.ctx, today);
  const inv = await app.sql.one<{ id: number; value: number }>("SELECT id, value FROM invoices WHERE company_id = $1", [t.companyId]);
  return { ...t, invoiceId: inv.id, value: inv.value };
}

const form = (invoiceId: number, o: Record<string, unknown> = {}) => ({
  firstName: "Maria Silva",
  lastName: "",
  address2: "Rua A, 10",
  city: "São Paulo",
  state: "SP",
  zipcode: "01000-000",
  country: "BR",
  invoiceId,
  ...o,
});
const subscribe = (token: string, invoiceId: number, o: Record<string, unknown> = {}) => app.api("POST", "/api/subscription", { token, body: form(invoiceId, o) });
const dueDateOf = async (companyId: number) => (await app.sql.one<{ d: string }>("SELECT to_char(due_date, 'YYYY-MM-DD') AS d FROM companies WHERE id = $1", [companyId])).d;
const invoiceStatus = async (id: number) => (await app.sql.one<{ status: string }>("SELECT status FROM invoices WHERE id = $1", [id])).status;

describe("recurrence dates", () => {
  it("adds the recurrence's months, a missing day becoming the month's last", () => {
    expect(nextDueDate("2026-01-15", "MENSAL")).toBe("2026-02-15");
    expect(nextDueDate("2026-01-31", "MENSAL")).toBe("2026-02-28");
    expect(nextDueDate("2028-01-31", "MENSAL")).toBe("2028-02-29");
    expect(nextDueDate("2026-03-31", "MENSAL")).toBe("2026-04-30");
    expect(nextDueDate("2026-12-31", "BIMESTRAL")).toBe("2027-02-28");
    expect(nextDueDate("2026-11-30", "TRIMESTRAL")).toBe("2027-02-28");
    expect(nextDueDate("2026-08-31", "SEMESTRAL")).toBe("2027-02-28");
    expect(nextDueDate("2028-02-29", "ANUAL")).toBe("2029-02-28");
    expect(addMonthsToDate("2026-05-10", 0)).toBe("2026-05-10");
  });
});

describe("invoice issuing job", () => {
  it("issues one invoice per company and period, ahead of the due date, whatever the runs or workers", async () => {
    const t = await buildTenant(app, { dueDate: inDays(7) });
    const far = await buildTenant(app, { dueDate: inDays(40) });
    const free = await buildTenant(app, { dueDate: inDays(3) });
    await app.sql.exec("UPDATE plans SET value = 50 WHERE id IN (SELECT plan_id FROM companies WHERE id = ANY($1))", [[t.companyId, far.companyId]]);
    await app.sql.exec("UPDATE companies SET recurrence = 'TRIMESTRAL' WHERE id = $1", [t.companyId]);
    // two workers at once, then a restart's run
    await Promise.all([issueInvoices(app.ctx, today), issueInvoices(app.ctx, today), issueInvoices(app.ctx, today)]);
    await issueInvoices(app.ctx, today);
    const rows = await app.sql.many<{ company_id: number; due_date: string; value: number; status: string }>(
      "SELECT company_id, to_char(due_date, 'YYYY-MM-DD') AS due_date, value, status FROM invoices WHERE company_id = ANY($1)",
      [[t.companyId, far.companyId, free.companyId]],
    );
    expect(rows).toEqual([{ company_id: t.companyId, due_date: inDays(7), value: 150, status: "open" }]);
    // the platform company is never billed
    expect(await app.sql.one("SELECT count(*)::int AS n FROM invoices i JOIN companies c ON c.id = i.company_id WHERE c.is_platform")).toEqual({ n: 0 });
  });

  it("a job run through pg-boss issues the invoice too", async () => {
    const t = await buildTenant(app, { dueDate: inDays(2) });
    await app.sql.exec("UPDATE plans SET value = 10 WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [t.companyId]);
    await app.ctx.jobs.send("billing.issue-invoices", { today });
    for (let i = 0; i < 100; i++) {
      if ((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM invoices WHERE company_id = $1", [t.companyId])).n === 1) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the job did not issue the invoice");
  });
});

describe("GET /invoices/all", () => {
  it("company admins list their own invoices; other profiles are refused; the super sees every company", async () => {
    const a = await billedTenant();
    const b = await billedTenant();
    expect((await app.api("GET", "/api/invoices/all")).statusCode).toBe(401);
    expect((await app.api("GET", "/api/invoices/all", { token: a.supervisor.token })).statusCode).toBe(403);
    expect((await app.api("GET", "/api/invoices/all", { token: a.user.token })).statusCode).toBe(403);
    const summary = (await app.api("GET", "/api/subscription", { token: a.admin.token })).json();
    expect(summary).toMatchObject({ dueDate: inDays(5), recurrence: "MENSAL", trial: true, plan: { value: 99.9 } });
    expect((await app.api("GET", "/api/subscription", { token: a.user.token })).statusCode).toBe(403);
    const own = (await app.api("GET", "/api/invoices/all?pageNumber=1", { token: a.admin.token })).json();
    expect(own.hasMore).toBe(false);
    expect(own.invoices).toEqual([expect.objectContaining({ id: a.invoiceId, companyId: a.companyId, value: 99.9, status: "open", dueDate: inDays(5), paidAt: null })]);
    expect(own.invoices[0].companyName).toBeUndefined();
    const root = await app.login("root@platform.test");
    const all = (await app.api("GET", `/api/invoices/all?companyId=${b.companyId}`, { token: root })).json();
    expect(all.invoices.map((i: { id: number }) => i.id)).toEqual([b.invoiceId]);
    expect(all.invoices[0].companyName).toEqual(expect.any(String));
    // b's invoice falls overdue: the overdue filter lists it and not a's, which is still due
    await app.sql.exec("UPDATE invoices SET due_date = $2 WHERE id = $1", [b.invoiceId, inDays(-3)]);
    const open = (await app.api("GET", "/api/invoices/all?status=overdue", { token: root })).json();
    const overdueIds = open.invoices.map((i: { id: number }) => i.id);
    expect(overdueIds).toContain(b.invoiceId);
    expect(overdueIds).not.toContain(a.invoiceId);
    expectEvery(open.invoices, (i: { dueDate: string; status: string }) => i.status === "open" && i.dueDate < today);
    expect((await app.api("GET", "/api/invoices/all?pageNumber=0", { token: a.admin.token })).statusCode).toBe(400);
  });
});

describe("POST /subscription (Pix checkout)", () => {
  it("charges the invoice's amount whatever the form says, and hands out the same active charge twice", async () => {
    const t = await billedTenant({ value: 120 });
    const res = await subscribe(t.admin.token, t.invoiceId, { price: 1, users: 999, connections: 999, plan: { id: 1, price: 0.01 }, cardNumber: "4111111111111111", cvv: "123" });
    expect(res.statusCode).toBe(200);
    const pix = res.json();
    expect(pix.valor.original).toBe("120.00");
    expect(pix.qrcode.qrcode).toMatch(/^000201.*br\.gov\.bcb\.pix.*540[0-9]120\.00.*6304[0-9A-F]{4}$/);
    expect(await app.sql.one("SELECT amount FROM pix_sandbox_charges WHERE txid = $1", [pix.txid])).toEqual({ amount: 120 });
    expect((await subscribe(t.admin.token, t.invoiceId)).json().txid).toBe(pix.txid);
    // card fields are not stored anywhere
    const stored = JSON.stringify(await app.sql.many("SELECT * FROM pix_charges WHERE company_id = $1", [t.companyId]));
    expect(stored).not.toContain("4111111111111111");
  });

  it("validates step 1 with the spec's messages, refuses other profiles and other companies' invoices", async () => {
    const t = await billedTenant();
    const other = await billedTenant();
    const bad = await subscribe(t.admin.token, t.invoiceId, { firstName: " ", city: "", country: "AR" });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain("nome completo obrigatorio");
    expect((await subscribe(t.supervisor.token, t.invoiceId)).statusCode).toBe(403);
    const foreign = await subscribe(t.admin.token, other.invoiceId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("ERR_INVOICE_NOT_FOUND");
    expect(await app.sql.one("SELECT count(*)::int AS n FROM pix_charges WHERE invoice_id = $1", [other.invoiceId])).toEqual({ n: 0 });
  });
});

describe("payment confirmation", () => {
  it("the sandbox PSP pays: invoice paid, due date moved one period from the due date, a paid invoice is not charged again", async () => {
    const t = await billedTenant({ dueInDays: 5, recurrence: "BIMESTRAL" });
    const pix = (await subscribe(t.admin.token, t.invoiceId)).json();
    const paid = await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: pix.txid } });
    expect(paid.statusCode).toBe(200);
    expect(await invoiceStatus(t.invoiceId)).toBe("paid");
    expect(await dueDateOf(t.companyId)).toBe(nextDueDate(inDays(5), "BIMESTRAL"));
    const again = await subscribe(t.admin.token, t.invoiceId);
    expect(again.json().error).toBe("ERR_INVOICE_ALREADY_PAID");
    expect((await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: pix.txid } })).json().error).toBe("ERR_PIX_CHARGE_NOT_PAYABLE");
  });

  it("duplicated and forged webhooks change nothing; a wrong secret is 404", async () => {
    const t = await billedTenant({ dueInDays: 3 });
    const pix = (await subscribe(t.admin.token, t.invoiceId)).json();
    const hook = (body: unknown, s = secret) => app.api("POST", `/api/pix/webhook/${s}/pix`, { body });
    // forged: the charge exists but the PSP has no payment for it
    const forged = { pix: [{ endToEndId: "E00000000202611260000forged0001", txid: pix.txid, valor: "99.90", horario: new Date().toISOString() }] };
    expect((await hook(forged)).statusCode).toBe(200);
    expect(await invoiceStatus(t.invoiceId)).toBe("open");
    expect((await hook(forged, "wrong-secret")).statusCode).toBe(404);
    expect((await hook({ pix: [{ txid: pix.txid }] })).statusCode).toBe(400);
    // paid at the PSP, then the webhook arrives twice
    await app.sql.exec("UPDATE pix_sandbox_charges SET status = 'CONCLUIDA', end_to_end_id = 'E00000000202611260000real000001', paid_amount = amount, paid_at = now() WHERE txid = $1", [pix.txid]);
    await hook(forged);
    await hook(forged, secret);
    expect(await invoiceStatus(t.invoiceId)).toBe("paid");
    expect(await dueDateOf(t.companyId)).toBe(nextDueDate(inDays(3), "MENSAL"));
    expect(await app.sql.many("SELECT end_to_end_id, applied FROM pix_payments WHERE invoice_id = $1", [t.invoiceId])).toEqual([{ end_to_end_id: "E00000000202611260000real000001", applied: true }]);
  });

  it("a short payment leaves the invoice open; a new charge from the pay button pays it", async () => {
    const t = await billedTenant({ value: 100 });
    const first = (await subscribe(t.admin.token, t.invoiceId)).json();
    await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: first.txid, amount: 99.99 } });
    expect(await invoiceStatus(t.invoiceId)).toBe("open");
    expect(await app.sql.one("SELECT applied, amount FROM pix_payments WHERE txid = $1", [first.txid])).toEqual({ applied: false, amount: 99.99 });
    const renewed = (await subscribe(t.admin.token, t.invoiceId)).json();
    expect(renewed.txid).not.toBe(first.txid);
    await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: renewed.txid } });
    expect(await invoiceStatus(t.invoiceId)).toBe("paid");
  });

  it("a company blocked by its due date is unblocked, its new due date counted from today", async () => {
    const t = await billedTenant({ dueInDays: 2 });
    const pix = (await subscribe(t.admin.token, t.invoiceId)).json();
    await app.sql.exec("UPDATE companies SET due_date = $2 WHERE id = $1", [t.companyId, inDays(-3)]);
    expect((await app.api("GET", "/api/invoices/all", { token: t.admin.token })).json().error).toBe("ERR_SUBSCRIPTION_EXPIRED");
    await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: pix.txid } });
    expect(await dueDateOf(t.companyId)).toBe(nextDueDate(today, "MENSAL"));
    expect((await app.api("GET", "/api/invoices/all", { token: t.admin.token })).statusCode).toBe(200);
  });

  it("an expired charge is renewed by the pay button", async () => {
    const t = await billedTenant();
    const first = (await subscribe(t.admin.token, t.invoiceId)).json();
    await app.sql.exec("UPDATE pix_charges SET expires_at = now() - interval '1 minute' WHERE txid = $1", [first.txid]);
    await app.sql.exec("UPDATE pix_sandbox_charges SET expires_at = now() - interval '1 minute' WHERE txid = $1", [first.txid]);
    expect((await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: first.txid } })).json().error).toBe("ERR_PIX_CHARGE_NOT_PAYABLE");
    const renewed = (await subscribe(t.admin.token, t.invoiceId)).json();
    expect(renewed.txid).not.toBe(first.txid);
    expect(renewed.status).toBe("ATIVA");
  });
});
