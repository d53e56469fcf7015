import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildPlan, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { issueInvoices } from "./invoices.js";
import { signPayLink } from "./pay-link.js";
import { todayUtc } from "./today.js";

let app: TestApp;
let rootToken: string;
let ipSeq = 0;
const freshIp = () => ({ "x-forwarded-for": `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });

beforeAll(async () => {
  app = await createTestApp();
  rootToken = await app.login("root@platform.test");
});
afterAll(async () => {
  await app.close();
});

const inDays = (n: number) => new Date(Date.parse(`${todayUtc()}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Signs up through the public form's route with the plan sign-up selects first, as a newcomer would. */
async function signUp(tag: string) {
  const options = await app.api("GET", "/api/billing/signup-options");
  expect(options.statusCode).toBe(200);
  const email = `${tag}-${Date.now()}-${ipSeq}@paylink.test`;
  const body = { name: `Loja ${tag} ${Date.now()}`.slice(0, 50), userName: "Joana Dona", email, phone: "11988887777", password: "segredo1", planId: options.json().planId };
  const res = await app.api("POST", "/api/companies/cadastro", { body, headers: freshIp() });
  expect(res.statusCode).toBe(200);
  return { companyId: res.json().id as number, email, dueDate: res.json().dueDate as string };
}

const loginAs = (email: string, password = "segredo1") => app.api("POST", "/api/auth/login", { body: { email, password }, headers: freshIp() });
/** The sandbox mailbox's messages to `email`, once there are `n` of them (they are sent after the answer). */
async function mailsTo(email: string, n: number) {
  const read = () => app.sql.many<{ subject: string; text: string }>("SELECT subject, text FROM email_sandbox_messages WHERE to_address = $1 ORDER BY id", [email]);
  await vi.waitFor(async () => expect(await read()).toHaveLength(n), { timeout: 5000 });
  await new Promise((r) => setTimeout(r, 200));
  return read();
}
const tokenOf = (payUrl: string) => payUrl.split("/pagar/")[1]!;

describe("a company that signs up can pay at once", () => {
  it("fresh start: the seeded priced plan is selected first, 'Assine Agora!' issues its invoice once, however often pressed or raced with the job", async () => {
    const options = (await app.api("GET", "/api/billing/signup-options")).json();
    expect(options.trialDays).toBe(7);
    const plan = await app.sql.one("SELECT name, value::text FROM plans WHERE id = $1", [options.planId]);
    expect(plan).toEqual({ name: "Plano Essencial", value: "99.90" });

    const c = await signUp("press");
    expect(c.dueDate).toBe(inDays(7));
    const token = (await loginAs(c.email)).json().token as string;
    const presses = await Promise.all([
      app.api("POST", "/api/invoices/issue", { token }),
      app.api("POST", "/api/invoices/issue", { token }),
      issueInvoices(app.ctx, todayUtc()),
    ]);
    expect(presses[0].statusCode).toBe(200);
    const invoice = presses[0].json().invoice;
    expect(invoice).toMatchObject({ value: 99.9, dueDate: inDays(7), status: "open" });
    expect(presses[1].json().invoice.id).toBe(invoice.id);
    expect((await app.api("POST", "/api/invoices/issue", { token })).json().invoice.id).toBe(invoice.id);
    expect(await app.sql.many("SELECT id FROM invoices WHERE company_id = $1", [c.companyId])).toEqual([{ id: invoice.id }]);

    // the new invoice's e-mail went out once (just after the answer), with the pay link
    const mails = await mailsTo(c.email, 1);
    expect(mails[0]!.subject).toContain("Nova fatura");
    expect(mails[0]!.text).toMatch(/\/pagar\/[\w-]+\.[\w-]+\.[\w-]+/);

    // and it is paid through the checkout, as before
    const form = { firstName: "Joana Dona", address2: "Rua B, 2", city: "Natal", zipcode: "59000-000", country: "BR", invoiceId: invoice.id };
    const pix = await app.api("POST", "/api/subscription", { token, body: form });
    expect(pix.statusCode).toBe(200);
    expect(pix.json().valor.original).toBe("99.90");
  });

  it("a plan of no value has nothing to issue", async () => {
    const t = await buildTenant(app, { dueDate: inDays(3) });
    const res = await app.api("POST", "/api/invoices/issue", { token: t.admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ invoice: null });
  });

  it("'Assine Agora!' is for company admins only", async () => {
    const t = await buildTenant(app);
    expect((await app.api("POST", "/api/invoices/issue")).statusCode).toBe(401);
    expect((await app.api("POST", "/api/invoices/issue", { token: t.supervisor.token })).statusCode).toBe(403);
  });
});

describe("after the due date: refused login, signed pay link", () => {
  it("the refusal keeps the date and makes no session, carries a pay link; paying through it lets the login in", async () => {
    const c = await signUp("late");
    await app.sql.exec("UPDATE companies SET due_date = $2 WHERE id = $1", [c.companyId, inDays(-3)]);
    const sessionsBefore = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sessions WHERE company_id = $1", [c.companyId]);

    const refused = await loginAs(c.email);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED", message: `Sua assinatura venceu em ${inDays(-3)}`, dueDate: inDays(-3) });
    expect(refused.json().token).toBeUndefined();
    const payUrl = refused.json().payUrl as string;
    expect(payUrl).toMatch(/^http.*\/pagar\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sessions WHERE company_id = $1", [c.companyId])).n).toBe(sessionsBefore.n);
    // the invoice of the due date was issued on the way (the hourly job had not run)
    expect(await app.sql.many("SELECT to_char(due_date, 'YYYY-MM-DD') AS due, status FROM invoices WHERE company_id = $1", [c.companyId])).toEqual([{ due: inDays(-3), status: "open" }]);
    // a second refusal names the same invoice
    expect(tokenOf((await loginAs(c.email)).json().payUrl)).toBeTruthy();
    expect(await app.sql.many("SELECT id FROM invoices WHERE company_id = $1", [c.companyId])).toHaveLength(1);
    // the invoice issued on the way is announced by e-mail, once, with a pay link to the same invoice
    const [mail] = await mailsTo(c.email, 1);
    expect(mail!.text).toContain("está vencida");
    const mailed = /\/pagar\/([\w.-]+)/.exec(mail!.text)![1]!;
    expect((await app.api("GET", `/api/public/invoices/${mailed}`)).json()).toEqual({ value: 99.9, dueDate: inDays(-3), status: "open" });

    const token = tokenOf(payUrl);
    const page = await app.api("GET", `/api/public/invoices/${token}`);
    expect(page.statusCode).toBe(200);
    // only the invoice's amount, due date and status
    expect(page.json()).toEqual({ value: 99.9, dueDate: inDays(-3), status: "open" });
    const pix = await app.api("POST", `/api/public/invoices/${token}/pix`);
    expect(pix.statusCode).toBe(200);
    expect(pix.json()).toMatchObject({ value: 99.9, dueDate: inDays(-3), status: "open", pix: { valor: { original: "99.90" } } });
    expect(pix.json().pix.qrcode.qrcode).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
    expect(Object.keys(pix.json()).sort()).toEqual(["dueDate", "pix", "status", "value"]);
    // the same charge again for a second visit
    expect((await app.api("POST", `/api/public/invoices/${token}/pix`)).json().pix.txid).toBe(pix.json().pix.txid);

    const paid = await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: pix.json().pix.txid } });
    expect(paid.statusCode).toBe(200);
    expect((await app.api("GET", `/api/public/invoices/${token}`)).json().status).toBe("paid");
    expect((await app.api("POST", `/api/public/invoices/${token}/pix`)).json().error).toBe("ERR_INVOICE_ALREADY_PAID");
    const after = await loginAs(c.email);
    expect(after.statusCode).toBe(200);
    expect(after.json().token).toEqual(expect.any(String));
  });

  it("the overdue invoice's e-mail carries a pay link that opens the same invoice", async () => {
    const c = await signUp("mail");
    await app.sql.exec("UPDATE companies SET due_date = $2 WHERE id = $1", [c.companyId, inDays(-1)]);
    await issueInvoices(app.ctx, todayUtc());
    const { sendInvoiceReminders } = await import("./reminders.js");
    const { createMailer } = await import("../../core/mailer.js");
    await sendInvoiceReminders(app.ctx, createMailer(app.ctx.config, app.ctx.log, app.sql));
    const mail = await app.sql.one<{ text: string }>("SELECT text FROM email_sandbox_messages WHERE to_address = $1", [c.email]);
    expect(mail.text).toContain("está vencida");
    const token = /\/pagar\/([\w.-]+)/.exec(mail.text)![1]!;
    expect((await app.api("GET", `/api/public/invoices/${token}`)).json()).toEqual({ value: 99.9, dueDate: inDays(-1), status: "open" });
  });

  it("a tampered, expired, other-purpose or other company's token is refused", async () => {
    const a = await signUp("tenant-a");
    const b = await signUp("tenant-b");
    for (const c of [a, b]) await app.sql.exec("UPDATE companies SET due_date = $2 WHERE id = $1", [c.companyId, inDays(-2)]);
    const tokenA = tokenOf((await loginAs(a.email)).json().payUrl);
    tokenOf((await loginAs(b.email)).json().payUrl);
    const invoiceB = await app.sql.one<{ id: number }>("SELECT id FROM invoices WHERE company_id = $1", [b.companyId]);
    const secret = app.ctx.config.jwtSecret;
    const refused = async (token: string) => {
      const get = await app.api("GET", `/api/public/invoices/${token}`);
      const post = await app.api("POST", `/api/public/invoices/${token}/pix`);
      return [get.statusCode, get.json().error, post.statusCode, post.json().error];
    };
    const no = [404, "ERR_PAY_LINK_INVALID", 404, "ERR_PAY_LINK_INVALID"];

    const [head, payload, sig] = tokenA.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, inv: invoiceB.id })).toString("base64url");
    expect(await refused(`${head}.${altered}.${sig}`)).toEqual(no);
    expect(await refused(`${head}.${payload}.${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`)).toEqual(no);
    // a well-signed token naming company A with company B's invoice
    expect(await refused(await signPayLink(secret, { companyId: a.companyId, invoiceId: invoiceB.id }, inDays(-2)))).toEqual(no);
    // signed with another secret
    expect(await refused(await signPayLink("another-secret", { companyId: b.companyId, invoiceId: invoiceB.id }, inDays(-2)))).toEqual(no);
    // expired: made 40 days ago for an invoice due 40 days ago (valid 30 days)
    const old = new Date(Date.now() - 40 * 86_400_000);
    expect(await refused(await signPayLink(secret, { companyId: b.companyId, invoiceId: invoiceB.id }, old.toISOString().slice(0, 10), old))).toEqual(no);
    // an access token is not a pay link
    const t = await buildTenant(app);
    expect(await refused(t.admin.token)).toEqual(no);
    expect(await refused("not-a-token")).toEqual(no);
    // and the genuine one still works
    expect((await app.api("GET", `/api/public/invoices/${tokenA}`)).statusCode).toBe(200);
  });
});

describe("sign-up settings", () => {
  it("are the super administrator's: a trial length and a plan with a value", async () => {
    const t = await buildTenant(app);
    expect((await app.api("GET", "/api/billing/signup-settings")).statusCode).toBe(401);
    expect((await app.api("PUT", "/api/billing/signup-settings", { token: t.admin.token, body: { trialDays: 1, planId: null } })).statusCode).toBe(403);
    const before = (await app.api("GET", "/api/billing/signup-settings", { token: rootToken })).json();
    const free = await buildPlan(app.sql);
    const refused = await app.api("PUT", "/api/billing/signup-settings", { token: rootToken, body: { trialDays: 5, planId: free } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("ERR_PLAN_NOT_OFFERED");
    expect((await app.api("PUT", "/api/billing/signup-settings", { token: rootToken, body: { trialDays: 91, planId: null } })).statusCode).toBe(400);
    const priced = await buildPlan(app.sql);
    await app.sql.exec("UPDATE plans SET value = 10 WHERE id = $1", [priced]);
    const saved = await app.api("PUT", "/api/billing/signup-settings", { token: rootToken, body: { trialDays: 14, planId: priced } });
    expect(saved.json()).toEqual({ trialDays: 14, planId: priced });
    expect((await app.api("GET", "/api/billing/signup-options")).json()).toEqual({ trialDays: 14, planId: priced });
    await app.api("PUT", "/api/billing/signup-settings", { token: rootToken, body: before });
  });
});
