import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeSmtp } from "../../../test/fake-smtp/server.js";
import { createWithFile, seedEmailWorld, waitStatus, type EmailWorld } from "../email-campaigns/test-fixtures.js";
import { buildSmsCampaign, readySms, seedSmsWorld, smsTestConfig, waitSms, type SmsWorld } from "../sms-campaigns/test-fixtures.js";

/** The opt-out list seen and corrected: GET/POST /api/opt-outs, DELETE /api/opt-outs/{channel}/{address}. */

let app: TestApp;
let smtp: FakeSmtp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let noCampaigns: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  process.env.CAMPAIGN_SMTP_URL = smtp.url;
  process.env.EMAIL_RATE_PER_SECOND = "40";
  process.env.EMAIL_POLL_MS = "100";
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-opt-outs-"));
  app = await createTestApp({ dataDir, publicUrl: "https://atende.test", ...smsTestConfig({ rate: 40 }) });
  t = await buildTenant(app);
  other = await buildTenant(app);
  noCampaigns = await buildTenant(app, { plan: { flags: { useCampaigns: false } } });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string = t.supervisor.token, body?: unknown) => app.api(method, url, { token, body });
const listed = async (query: string, token = t.supervisor.token) => {
  const res = await api("GET", `/api/opt-outs${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { results: { channel: string; address: string; source: string; reference: string | null; referenceName: string | null }[]; count: number };
};

describe("who may use the list", () => {
  it("needs a session, a supervisor or above, and campaigns in the plan", async () => {
    expect((await app.api("GET", "/api/opt-outs", {})).statusCode).toBe(401);
    const agent = await api("GET", "/api/opt-outs", t.user.token);
    expect(agent.statusCode).toBe(403);
    expect(agent.json().error).toBe("ERR_NO_PERMISSION");
    expect((await api("POST", "/api/opt-outs", t.user.token, { channel: "sms", address: "11999990001" })).statusCode).toBe(403);
    expect((await api("DELETE", "/api/opt-outs/sms/5511999990001", t.user.token)).statusCode).toBe(403);
    expect((await api("GET", "/api/opt-outs", noCampaigns.admin.token)).statusCode).toBe(403);
    expect((await api("GET", "/api/opt-outs", t.supervisor.token)).statusCode).toBe(200);
    expect((await api("GET", "/api/opt-outs", t.admin.token)).statusCode).toBe(200);
  });
});

describe("adding by hand", () => {
  it("stores a number as its E.164 digits and an e-mail in lower case, source admin, and audits it", async () => {
    const sms = await api("POST", "/api/opt-outs", t.supervisor.token, { channel: "sms", address: "(11) 98888-0001" });
    expect(sms.statusCode, sms.body).toBe(200);
    const supervisorName = (await app.sql.one<{ name: string }>("SELECT name FROM users WHERE id = $1", [t.supervisor.id])).name;
    expect(sms.json()).toMatchObject({ channel: "sms", address: "5511988880001", source: "admin", reference: `user:${t.supervisor.id}`, referenceName: supervisorName });
    const email = await api("POST", "/api/opt-outs", t.supervisor.token, { channel: "email", address: " Ana.Souza@Loja.TEST " });
    expect(email.json()).toMatchObject({ channel: "email", address: "ana.souza@loja.test", source: "admin" });
    const audit = await app.sql.many<{ action: string; details: Record<string, string> }>(
      "SELECT action, details FROM audit_log WHERE company_id = $1 AND action LIKE 'opt_out.%' ORDER BY id",
      [t.companyId],
    );
    expect(audit).toEqual([
      { action: "opt_out.added", details: { channel: "sms", address: "5511988880001" } },
      { action: "opt_out.added", details: { channel: "email", address: "ana.souza@loja.test" } },
    ]);
  });

  it("refuses a second entry for the same address in any written form", async () => {
    const dup = await api("POST", "/api/opt-outs", t.supervisor.token, { channel: "sms", address: "+55 11 98888-0001" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("ERR_OPT_OUT_DUPLICATE");
    expect((await api("POST", "/api/opt-outs", t.supervisor.token, { channel: "email", address: "ANA.SOUZA@loja.test" })).json().error).toBe("ERR_OPT_OUT_DUPLICATE");
    // the same address on the other channel, or in another company, is another entry
    expect((await api("POST", "/api/opt-outs", other.admin.token, { channel: "sms", address: "11988880001" })).statusCode).toBe(200);
  });

  it("refuses what cannot be an address or a number, with the field's message", async () => {
    const cases: [unknown, string][] = [
      [{ channel: "email", address: "ana@" }, "E-mail inválido."],
      [{ channel: "sms", address: "12ab" }, "Número de telefone inválido."],
      [{ channel: "sms", address: "123" }, "Número de telefone inválido."],
      // 8-15 digits, but no country's number (the server's phone rules)
      [{ channel: "sms", address: "00000000000" }, "Número de telefone inválido."],
      [{ channel: "sms", address: "  " }, "Informe o endereço ou número."],
    ];
    for (const [body, message] of cases) {
      const res = await api("POST", "/api/opt-outs", t.supervisor.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().fields.address, JSON.stringify(body)).toBe(message);
    }
    expect((await api("POST", "/api/opt-outs", t.supervisor.token, { channel: "whatsapp", address: "11988880002" })).statusCode).toBe(400);
  });
});

describe("the list", () => {
  it("pages 40 at a time, newest first, filtered by channel and by part of the address or number", async () => {
    const c = await buildTenant(app);
    await app.sql.exec(
      `INSERT INTO opt_outs (company_id, channel, address, source, reference, created_at)
       SELECT $1, 'sms', '55119777' || lpad(n::text, 5, '0'), 'reply', 'sms-campaign:7', now() - n * interval '1 minute' FROM generate_series(1, 45) AS n`,
      [c.companyId],
    );
    await app.sql.exec(
      "INSERT INTO opt_outs (company_id, channel, address, source, reference) VALUES ($1, 'email', 'bia_100%@x.test', 'bounce', 'email-campaign:3')",
      [c.companyId],
    );
    const first = await listed("?page=1", c.supervisor.token);
    expect(first.count).toBe(46);
    expect(first.results).toHaveLength(40);
    // the campaign ids named here are no campaign of this company: no name
    expect(first.results[0]).toMatchObject({ channel: "email", address: "bia_100%@x.test", source: "bounce", reference: "email-campaign:3", referenceName: null });
    expect(first.results[1]!.address).toBe("551197770000" + "1");
    expect((await listed("?page=2", c.supervisor.token)).results.map((r) => r.address).at(-1)).toBe("5511977700045");
    expect((await listed("?channel=email", c.supervisor.token)).count).toBe(1);
    expect((await listed("?channel=sms", c.supervisor.token)).count).toBe(45);
    // a number's fragment as people write it, and an e-mail fragment without case; % and _ are literal
    expect((await listed(`?search=${encodeURIComponent("(11) 9777-00012")}`, c.supervisor.token)).results.map((r) => r.address)).toEqual(["5511977700012"]);
    expect((await listed("?search=BIA_", c.supervisor.token)).results.map((r) => r.address)).toEqual(["bia_100%@x.test"]);
    expect((await listed("?search=%25", c.supervisor.token)).count).toBe(1);
    // "_" is not a wildcard: "b_a" does not find "bia"
    expect((await listed("?channel=email&search=b_a", c.supervisor.token)).count).toBe(0);
    // another company's list is its own
    expect((await listed("", other.supervisor.token)).results.map((r) => r.address)).toEqual(["5511988880001"]);
    // a campaign of the company is named by its title; another company's campaign id names nothing
    const own = await buildSmsCampaign(app.sql, { companyId: c.companyId, total: 1 });
    const foreign = await buildSmsCampaign(app.sql, { companyId: t.companyId, total: 1 });
    await app.sql.exec(
      `INSERT INTO opt_outs (company_id, channel, address, source, reference) VALUES ($1, 'sms', '5511966660001', 'reply', $2), ($1, 'sms', '5511966660002', 'reply', $3)`,
      [c.companyId, `sms-campaign:${own}`, `sms-campaign:${foreign}`],
    );
    const named = (await listed("?search=55119666600", c.supervisor.token)).results.sort((a, b) => a.address.localeCompare(b.address));
    expect(named.map((r) => r.referenceName)).toEqual(["Bench", null]);
  });
});

describe("removing", () => {
  it("is the company's own: another company's entry is not found and stays", async () => {
    const res = await api("DELETE", "/api/opt-outs/email/ana.souza%40loja.test", other.admin.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("ERR_OPT_OUT_NOT_FOUND");
    expect((await listed("?channel=email")).count).toBe(1);
  });

  it("removes one entry, audited with what it said; a second removal is not found", async () => {
    const res = await api("DELETE", "/api/opt-outs/email/ana.souza%40loja.test", t.supervisor.token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed("?channel=email")).count).toBe(0);
    expect((await api("DELETE", "/api/opt-outs/email/ana.souza%40loja.test", t.supervisor.token)).statusCode).toBe(404);
    const audit = await app.sql.one<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_log WHERE company_id = $1 AND action = 'opt_out.removed' ORDER BY id DESC LIMIT 1",
      [t.companyId],
    );
    expect(audit.details).toMatchObject({ channel: "email", address: "ana.souza@loja.test", source: "admin", reference: `user:${t.supervisor.id}` });
    // a long address (64 + 1 + 189 characters, URL-encoded past Fastify's default 100) is removed too
    const long = `${"l".repeat(64)}@${"d".repeat(185)}.com`;
    expect((await api("POST", "/api/opt-outs", t.supervisor.token, { channel: "email", address: long })).statusCode).toBe(200);
    expect((await api("DELETE", `/api/opt-outs/email/${encodeURIComponent(long)}`)).statusCode).toBe(200);
    // the number, by the written form too
    expect((await api("DELETE", `/api/opt-outs/sms/${encodeURIComponent("(11) 98888-0001")}`, t.admin.token)).statusCode).toBe(200);
    expect((await listed("?channel=sms")).count).toBe(0);
  });
});

describe("after a removal, later campaigns write to the recipient again", () => {
  let ew: EmailWorld;
  let sw: SmsWorld;
  beforeAll(async () => {
    ew = await seedEmailWorld(app, t.companyId);
    sw = await seedSmsWorld(app, t.companyId);
  });

  it("e-mail: refused while listed; after the removal analysed as valid and sent once", async () => {
    await api("POST", "/api/opt-outs", t.supervisor.token, { channel: "email", address: "volta@x.test" });
    const csv = "telefone;cpf;email;nome\n1;;Volta@x.test;V\n2;;fica@x.test;F\n";
    const before = await createWithFile(app, t.supervisor.token, ew, csv);
    await waitStatus(app, before, ["ACTIVE"]);
    const state = (id: number) =>
      app.sql.many<{ email: string; state: string }>("SELECT email, state FROM email_campaign_recipients WHERE campaign_id = $1 ORDER BY row_number", [id]);
    expect(await state(before)).toEqual([
      { email: "Volta@x.test", state: "invalid" },
      { email: "fica@x.test", state: "pending" },
    ]);

    expect((await api("DELETE", "/api/opt-outs/email/volta%40x.test")).statusCode).toBe(200);
    const after = await createWithFile(app, t.supervisor.token, ew, csv);
    await waitStatus(app, after, ["ACTIVE"]);
    expect((await state(after)).map((r) => r.state)).toEqual(["pending", "pending"]);
    expect((await api("POST", `/api/email/campaigns/${after}/trigger/`)).statusCode).toBe(200);
    await waitStatus(app, after, ["FINISHED"]);
    expect(smtp.to("Volta@x.test")).toHaveLength(1);
  });

  it("SMS: refused while listed (a SAIR reply); after the removal analysed as valid and sent", async () => {
    await app.sql.exec("INSERT INTO opt_outs (company_id, channel, address, source, reference) VALUES ($1, 'sms', '5511977776666', 'reply', 'sms-campaign:1')", [
      t.companyId,
    ]);
    const csv = "telefone;cpf;email;nome;vencimento\n11977776666;;;Ana;10/12\n11977775555;;;Bia;11/12\n";
    const before = await readySms(app, t.supervisor.token, sw, csv);
    expect(before).toMatchObject({ status: "READY", total: 2, invalid: 1 });

    expect((await api("DELETE", "/api/opt-outs/sms/5511977776666")).statusCode).toBe(200);
    const after = await readySms(app, t.supervisor.token, sw, csv);
    expect(after).toMatchObject({ status: "READY", total: 2, invalid: 0 });
    expect((await api("POST", `/api/sms/campaigns/${after.id}/trigger/`)).statusCode).toBe(200);
    await waitSms(app, t.supervisor.token, after.id as number, (c) => c.status === "FINISHED");
    const sent = await app.sql.many<{ to_number: string }>("SELECT to_number FROM sms_sandbox_messages WHERE company_id = $1 ORDER BY id", [t.companyId]);
    // both, once each; in the order they reached the sandbox provider, which two sends 25 ms apart
    // (40/s) on a busy machine do not keep (CI saw them arrive the other way round)
    expect(sent.map((m) => m.to_number).sort()).toEqual(["5511977775555", "5511977776666"]);
  });
});
