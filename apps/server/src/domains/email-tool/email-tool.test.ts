import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { INTERRUPTED_EMAIL, runEmailSend } from "./job.js";

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

let app: TestApp;
let smtp: SMTPServer;
const inbox: ReceivedMail[] = [];
/** Recipients the fake SMTP server refuses (550), as a real server does for an unknown mailbox. */
const refused = new Set(["recusado@destino.test"]);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address)) return callback(Object.assign(new Error("5.1.1 Mailbox unavailable"), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  app = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const send = (token: string, email: string, o: Record<string, unknown> = {}) =>
  app.api("POST", "/api/enviar-email", { token, body: { email, tokenSenha: "segredo-do-front", assunto: "Reunião amanhã", mensagem: "Olá, a reunião é às 10h.", ...o } });

async function waitStatus(token: string, id: number, timeoutMs = 15_000) {
  const start = Date.now();
  for (;;) {
    const list = (await app.api("GET", "/api/listar-emails-enviados?page=1", { token })).json();
    const row = list.results.find((r: { id: number }) => r.id === id);
    if (row && (row.status === "sent" || row.status === "failed")) return row;
    if (Date.now() - start > timeoutMs) throw new Error(`e-mail ${id} still ${row?.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("simple e-mail tool: access", () => {
  it("is for supervisors and administrators of a plan with campaigns", async () => {
    const t = await buildTenant(app);
    expect((await app.api("POST", "/api/enviar-email", { body: {} })).statusCode).toBe(401);
    const asUser = await send(t.user.token, "cliente@destino.test");
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().error).toBe("ERR_NO_PERMISSION");
    expect((await app.api("GET", "/api/listar-emails-enviados", { token: t.user.token })).statusCode).toBe(403);
    const noPlan = await buildTenant(app, { plan: { flags: { useCampaigns: false } } });
    expect((await send(noPlan.admin.token, "cliente@destino.test")).json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
    expect(await app.sql.one("SELECT count(*)::int AS n FROM sent_emails WHERE company_id IN ($1, $2)", [t.companyId, noPlan.companyId])).toEqual({ n: 0 });
  });
});

describe("simple e-mail tool: send and list", () => {
  it("sends one e-mail per call through SMTP, stores it without the tokenSenha, and lists it as sent", async () => {
    const t = await buildTenant(app);
    const res = await send(t.supervisor.token, "  cliente@destino.test ");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ sender: "cliente@destino.test", subject: "Reunião amanhã", message: "Olá, a reunião é às 10h.", userName: "Supervisor" });
    expect(["queued", "sending", "sent"]).toContain(res.json().status);
    const done = await waitStatus(t.supervisor.token, res.json().id);
    expect(done).toMatchObject({ status: "sent", error: null });
    const mail = inbox.find((m) => m.to.includes("cliente@destino.test"));
    expect(mail).toBeDefined();
    expect(mail!.raw).toMatch(/^Subject: =\?UTF-8\?Q\?Reuni=C3=A3o_amanh=C3=A3\?=/m);
    expect(mail!.raw).toContain("reuni=C3=A3o");
    const stored = JSON.stringify(await app.sql.many("SELECT * FROM sent_emails WHERE company_id = $1", [t.companyId]));
    expect(stored).not.toContain("segredo-do-front");
  });

  it("records the SMTP server's refusal as failed with its reason", async () => {
    const t = await buildTenant(app);
    const res = await send(t.admin.token, "recusado@destino.test");
    expect(res.statusCode).toBe(200);
    const done = await waitStatus(t.admin.token, res.json().id);
    expect(done.status).toBe("failed");
    expect(done.error).toContain("Mailbox unavailable");
  });

  it("validates the address, subject and message", async () => {
    const t = await buildTenant(app);
    for (const [body, field, message] of [
      [{ email: "não-é-email" }, "email", "Invalid email"],
      [{ email: "" }, "email", "Required"],
      [{ email: "a@b.test, c@d.test" }, "email", "Invalid email"],
      [{ assunto: "  " }, "assunto", "Required"],
      [{ mensagem: "" }, "mensagem", "Required"],
      [{ mensagem: "m".repeat(20_001) }, "mensagem", "Too Long!"],
    ] as const) {
      const res = await send(t.admin.token, "ok@destino.test", body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json().fields[field]).toBe(message);
    }
    expect(await app.sql.one("SELECT count(*)::int AS n FROM sent_emails WHERE company_id = $1", [t.companyId])).toEqual({ n: 0 });
  });

  it("lists only the company's own, newest first, 5 a page with next", async () => {
    const a = await buildTenant(app);
    const b = await buildTenant(app);
    await app.sql.exec(
      `INSERT INTO sent_emails (company_id, user_id, sender, subject, message, status, created_at)
       SELECT $1, $2, 'c' || i || '@destino.test', 'Assunto ' || i, 'Mensagem ' || i, 'sent', now() - (i || ' minutes')::interval FROM generate_series(1, 7) i`,
      [a.companyId, a.admin.id],
    );
    await app.sql.exec("INSERT INTO sent_emails (company_id, sender, subject, message) VALUES ($1, 'x@b.test', 'De B', 'B')", [b.companyId]);
    const first = (await app.api("GET", "/api/listar-emails-enviados", { token: a.admin.token })).json();
    expect(first).toMatchObject({ count: 7, next: 2 });
    expect(first.results.map((r: { subject: string }) => r.subject)).toEqual(["Assunto 1", "Assunto 2", "Assunto 3", "Assunto 4", "Assunto 5"]);
    expect(first.results[0]).toMatchObject({ sender: "c1@destino.test", message: "Mensagem 1", userName: "Admin", status: "sent" });
    const second = (await app.api("GET", "/api/listar-emails-enviados?page=2", { token: a.supervisor.token })).json();
    expect(second).toMatchObject({ count: 7, next: null });
    expect(second.results.map((r: { subject: string }) => r.subject)).toEqual(["Assunto 6", "Assunto 7"]);
    expect((await app.api("GET", "/api/listar-emails-enviados", { token: b.admin.token })).json()).toMatchObject({ count: 1 });
  });

  it("stops a company at 200 e-mails in an hour with ERR_EMAIL_TOOL_RATE_LIMIT; other companies still send", async () => {
    const a = await buildTenant(app);
    const b = await buildTenant(app);
    await app.sql.exec(
      `INSERT INTO sent_emails (company_id, sender, subject, message, status, created_at)
       SELECT $1, 'c@destino.test', 'S', 'M', 'sent', now() - interval '61 minutes' FROM generate_series(1, 5)`,
      [a.companyId],
    );
    await app.sql.exec(
      `INSERT INTO sent_emails (company_id, sender, subject, message, status, created_at)
       SELECT $1, 'c@destino.test', 'S', 'M', 'sent', now() - interval '30 minutes' FROM generate_series(1, 199)`,
      [a.companyId],
    );
    // the last free place, taken by one of two calls at once
    const both = await Promise.all([send(a.admin.token, "um@destino.test"), send(a.supervisor.token, "dois@destino.test")]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 429]);
    const limited = both.find((r) => r.statusCode === 429)!;
    expect(limited.json()).toMatchObject({ error: "ERR_EMAIL_TOOL_RATE_LIMIT", limit: 200 });
    expect((await send(b.admin.token, "tres@destino.test")).statusCode).toBe(200);
  });

  it("reports an e-mail whose send was interrupted by a crash as failed, never sends it twice", async () => {
    const t = await buildTenant(app);
    const { id } = await app.sql.one<{ id: number }>(
      "INSERT INTO sent_emails (company_id, sender, subject, message, status, claimed_at) VALUES ($1, 'meio@destino.test', 'S', 'M', 'sending', now()) RETURNING id",
      [t.companyId],
    );
    const before = inbox.length;
    const mailer = { send: () => Promise.reject(new Error("must not be called")) };
    expect(await runEmailSend(app.ctx, mailer, { companyId: t.companyId, sentEmailId: id })).toBe("failed");
    expect(await app.sql.one("SELECT status, error FROM sent_emails WHERE id = $1", [id])).toEqual({ status: "failed", error: INTERRUPTED_EMAIL });
    expect(await runEmailSend(app.ctx, mailer, { companyId: t.companyId, sentEmailId: id })).toBe("skipped");
    expect(inbox.length).toBe(before);
  });
});
