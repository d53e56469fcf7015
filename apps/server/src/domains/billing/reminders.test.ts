import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../../core/mailer.js";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { sendInvoiceReminders } from "./reminders.js";

let app: TestApp;
let smtp: SMTPServer;
const inbox: { to: string[]; raw: string }[] = [];
let failNext = false;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (failNext) {
        failNext = false;
        return callback(Object.assign(new Error("4.3.0 Try again later"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const day = (base: string, n: number) => new Date(Date.parse(`${base}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe("invoice reminder e-mails", () => {
  it("when issued, 5 days before, 1 day before and overdue, each once, whatever the runs or processes; a failed send is retried", async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, mailFrom: "Atende <no-reply@atende.test>", env: "test" }, app.ctx.log);
    const base = "2030-03-10";
    const t = await buildTenant(app, { dueDate: day(base, 5) });
    const { email } = await app.sql.one<{ email: string }>("SELECT email::text FROM companies WHERE id = $1", [t.companyId]);
    const invoice = await app.sql.one<{ id: number }>("INSERT INTO invoices (company_id, due_date, recurrence, detail, value) VALUES ($1, $2, 'MENSAL', 'Plano Pro', 99.9) RETURNING id", [t.companyId, day(base, 5)]);
    const mine = () => inbox.filter((m) => m.to.includes(email));

    await Promise.all([sendInvoiceReminders(app.ctx, mailer, base), sendInvoiceReminders(app.ctx, mailer, base)]);
    await sendInvoiceReminders(app.ctx, mailer, day(base, 2));
    expect(mine()).toHaveLength(1);
    // the first e-mail announces the new invoice, says when it is due and counts as the 5-day reminder
    expect(mine()[0]!.raw).toContain("Nova fatura");
    expect(mine()[0]!.raw).toContain("vence em 5 dias");
    // quoted-printable: soft line breaks undone before looking for the link
    expect(mine()[0]!.raw.replace(/=\r\n/g, "")).toMatch(/\/pagar\/[\w-]+\.[\w-]+\.[\w-]+/);

    failNext = true;
    await sendInvoiceReminders(app.ctx, mailer, day(base, 4));
    expect(mine()).toHaveLength(1);
    await sendInvoiceReminders(app.ctx, mailer, day(base, 4));
    await sendInvoiceReminders(app.ctx, mailer, day(base, 5));
    expect(mine()).toHaveLength(2);
    expect(mine()[1]!.raw).toContain("vence amanh");

    await sendInvoiceReminders(app.ctx, mailer, day(base, 6));
    await sendInvoiceReminders(app.ctx, mailer, day(base, 9));
    expect(mine()).toHaveLength(3);
    expect(mine()[2]!.raw).toContain("vencida");
    expect(await app.sql.many("SELECT kind FROM invoice_reminders WHERE invoice_id = $1 ORDER BY kind", [invoice.id])).toEqual([{ kind: "due1" }, { kind: "due5" }, { kind: "issued" }, { kind: "overdue" }]);

    // a paid invoice gets nothing more
    const paid = await app.sql.one<{ id: number }>("INSERT INTO invoices (company_id, due_date, recurrence, detail, value, status) VALUES ($1, $2, 'MENSAL', 'Plano Pro', 99.9, 'paid') RETURNING id", [t.companyId, day(base, 40)]);
    await sendInvoiceReminders(app.ctx, mailer, day(base, 39));
    expect(await app.sql.many("SELECT kind FROM invoice_reminders WHERE invoice_id = $1", [paid.id])).toEqual([]);
  });
});
