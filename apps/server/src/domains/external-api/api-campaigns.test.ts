import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeSmtp } from "../../../test/fake-smtp/server.js";
import { connectedSandbox } from "../../channels/testing.js";
import { createBody, createWithFile, seedEmailWorld, waitStatus, type EmailWorld } from "../email-campaigns/test-fixtures.js";
import { seedSmsWorld, smsForm, smsTestConfig, type SmsWorld } from "../sms-campaigns/test-fixtures.js";

/**
 * SMS and e-mail campaigns created by the Messages API (source 1 / API, spec 3 §3, §9) with a
 * connection's token: create, PUT the CSV to upload_url with the same token, trigger; the web list shows
 * the source; the web cannot trigger an API e-mail campaign and the API cannot touch the web's (§4).
 */

let app: TestApp;
let smtp: FakeSmtp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let noCampaigns: Awaited<ReturnType<typeof buildTenant>>;
let TOKEN: string;
let OTHER_TOKEN: string;
let NO_CAMPAIGNS_TOKEN: string;
let ew: EmailWorld;
let sw: SmsWorld;
let address = 0;

async function tokenOf(tenant: typeof t, name: string): Promise<string> {
  const id = await connectedSandbox(app, tenant.admin.token, { name });
  const res = await app.api("POST", `/api/whatsapp/${id}/token`, { token: tenant.admin.token });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  process.env.CAMPAIGN_SMTP_URL = smtp.url;
  process.env.EMAIL_RATE_PER_SECOND = "40";
  process.env.EMAIL_POLL_MS = "100";
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-api-campaigns-"));
  app = await createTestApp({ dataDir, publicUrl: "https://atende.test", ...smsTestConfig() });
  t = await buildTenant(app);
  other = await buildTenant(app);
  noCampaigns = await buildTenant(app, { plan: { flags: { useCampaigns: false } } });
  TOKEN = await tokenOf(t, "API campanhas");
  OTHER_TOKEN = await tokenOf(other, "API outra");
  NO_CAMPAIGNS_TOKEN = await tokenOf(noCampaigns, "API sem campanhas");
  ew = await seedEmailWorld(app, t.companyId);
  sw = await seedSmsWorld(app, t.companyId);
});
afterAll(async () => {
  await app.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A Messages API call with the connection token, each from its own address (the bad-token limit counts per address). */
function call(method: string, url: string, o: { token?: string; body?: unknown; csv?: string } = {}) {
  const headers: Record<string, string> = { "x-forwarded-for": `10.77.0.${++address % 250}` };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.csv !== undefined) headers["content-type"] = "text/csv";
  return app.app.inject({ method: method as "GET", url, headers, ...(o.csv !== undefined ? { payload: o.csv } : o.body !== undefined ? { payload: o.body as object } : {}) });
}

describe("e-mail campaigns by API token", () => {
  it("refuses a missing or wrong token, a user's session token, and a plan without campaigns", async () => {
    expect((await call("POST", "/api/messages/email-campaigns/", { body: createBody(ew) })).statusCode).toBe(401);
    expect((await call("POST", "/api/messages/email-campaigns/", { token: "nope", body: createBody(ew) })).json()).toMatchObject({ error: "ERR_SESSION_EXPIRED" });
    expect((await call("POST", "/api/messages/email-campaigns/", { token: t.admin.token, body: createBody(ew) })).statusCode).toBe(401);
    const plan = await call("POST", "/api/messages/email-campaigns/", { token: NO_CAMPAIGNS_TOKEN, body: createBody(ew) });
    expect(plan.statusCode).toBe(403);
    expect(plan.json()).toMatchObject({ error: "ERR_PLAN_FEATURE_DISABLED" });
  });

  it("the spec §5 rules and the company scope apply as on the web", async () => {
    const res = await call("POST", "/api/messages/email-campaigns/", { token: TOKEN, body: createBody(ew, { sender: "" }) });
    expect(res.json()).toMatchObject({ error: "ERR_EMAIL_SENDER_REQUIRED", message: "O remetente é obrigatório." });
    // another company's token cannot use this company's cost center, sender or template
    const theirs = await call("POST", "/api/messages/email-campaigns/", { token: OTHER_TOKEN, body: createBody(ew) });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: "ERR_NOT_FOUND" });
  });

  it("create (source 1), PUT the CSV with the token, trigger through the API; sent like any campaign", async () => {
    const created = await call("POST", "/api/messages/email-campaigns/", { token: TOKEN, body: createBody(ew, { title: "Via API" }) });
    expect(created.statusCode).toBe(200);
    const c = created.json() as { id: number; source: number; status: string; upload_url: string };
    expect(c).toMatchObject({ source: 1, status: "MISSING_FILE", upload_url: `https://atende.test/api/messages/email-campaigns/${c.id}/file/` });
    const upload = new URL(c.upload_url).pathname;

    // another company's token: not found; the web session cannot upload to the API's route
    expect((await call("PUT", upload, { token: OTHER_TOKEN, csv: "telefone;cpf;email;nome\n1;;a@api.test;A\n" })).statusCode).toBe(404);
    const put = await call("PUT", upload, { token: TOKEN, csv: "telefone;cpf;email;nome\n1;;a@api.test;A\n2;;b@api.test;B\n" });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ status: "ANALYZING" });
    await waitStatus(app, c.id, ["ACTIVE"]);

    // the web list shows it with source 1, and the web's trigger refuses it (spec §4: web only for source 2)
    const list = await app.api("GET", "/api/email/campaigns/", { token: t.supervisor.token });
    expect((list.json() as { results: { id: number; source: number }[] }).results.find((r) => r.id === c.id)).toMatchObject({ source: 1 });
    const web = await app.api("POST", `/api/email/campaigns/${c.id}/trigger/`, { token: t.supervisor.token });
    expect(web.statusCode).toBe(409);
    expect(web.json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_NOT_TRIGGERABLE" });

    expect((await call("POST", `/api/messages/email-campaigns/${c.id}/trigger/`, { token: OTHER_TOKEN })).statusCode).toBe(404);
    const trig = await call("POST", `/api/messages/email-campaigns/${c.id}/trigger/`, { token: TOKEN });
    expect(trig.statusCode).toBe(200);
    expect(trig.json()).toMatchObject({ status: "TRIGGERING", source: 1 });
    await waitStatus(app, c.id, ["FINISHED"]);
    expect(smtp.to("a@api.test")).toHaveLength(1);
    expect(smtp.to("b@api.test")).toHaveLength(1);
    expect((await call("GET", `/api/messages/email-campaigns/${c.id}/`, { token: TOKEN })).json()).toMatchObject({ status: "FINISHED", count_emails_sent: 2 });
    // a second trigger: refused with the API's wording
    expect((await call("POST", `/api/messages/email-campaigns/${c.id}/trigger/`, { token: TOKEN })).json()).toMatchObject({
      error: "ERR_EMAIL_CAMPAIGN_NOT_TRIGGERABLE",
      message: "Pela API só é possível disparar uma campanha Ativa criada pela API.",
    });
  });

  it("the API does not see nor trigger the web's campaigns", async () => {
    const web = await createWithFile(app, t.supervisor.token, ew, "telefone;cpf;email;nome\n1;;w@web.test;W\n");
    await waitStatus(app, web, ["ACTIVE"]);
    expect((await call("GET", `/api/messages/email-campaigns/${web}/`, { token: TOKEN })).statusCode).toBe(404);
    expect((await call("POST", `/api/messages/email-campaigns/${web}/trigger/`, { token: TOKEN })).statusCode).toBe(404);
    expect((await app.sql.one<{ status: string }>("SELECT status FROM email_campaigns WHERE id = $1", [web])).status).toBe("ACTIVE");
  });
});

describe("SMS campaigns by API token", () => {
  it("create (source API), PUT the CSV with the token, trigger; the web list shows API", async () => {
    expect((await call("POST", "/api/messages/sms-campaigns/", { body: smsForm(sw) })).statusCode).toBe(401);
    expect((await call("POST", "/api/messages/sms-campaigns/", { token: NO_CAMPAIGNS_TOKEN, body: smsForm(sw) })).statusCode).toBe(403);
    const bad = await call("POST", "/api/messages/sms-campaigns/", { token: TOKEN, body: smsForm(sw, { template: "" }) });
    expect(bad.json()).toMatchObject({ error: "ERR_SMS_TEMPLATE_REQUIRED" });

    const created = await call("POST", "/api/messages/sms-campaigns/", { token: TOKEN, body: smsForm(sw, { title: "SMS via API" }) });
    expect(created.statusCode).toBe(200);
    const c = created.json() as { id: number; source: string; upload_url: string };
    expect(c).toMatchObject({ source: "API", upload_url: `/api/messages/sms-campaigns/${c.id}/file/` });
    expect((await call("PUT", c.upload_url, { token: OTHER_TOKEN, csv: "telefone;cpf;email;nome;vencimento\n11988887777;;;Ana;10/12\n" })).statusCode).toBe(404);
    const put = await call("PUT", c.upload_url, { token: TOKEN, csv: "telefone;cpf;email;nome;vencimento\n11988887777;;;Ana;10/12\n11977776666;;;Bia;11/12\n" });
    expect(put.statusCode).toBe(200);
    const until = Date.now() + 20_000;
    while ((await app.sql.one<{ status: string }>("SELECT status FROM sms_campaigns WHERE id = $1", [c.id])).status !== "READY") {
      if (Date.now() > until) throw new Error("SMS analysis did not end");
      await new Promise((r) => setTimeout(r, 50));
    }
    const report = await app.api("GET", "/api/sms/report/", { token: t.supervisor.token });
    expect((report.json() as { results: { id: number; source: string }[] }).results.find((r) => r.id === c.id)).toMatchObject({ source: "API" });

    expect((await call("POST", `/api/messages/sms-campaigns/${c.id}/trigger/`, { token: OTHER_TOKEN })).statusCode).toBe(404);
    expect((await call("POST", `/api/messages/sms-campaigns/${c.id}/trigger/`, { token: TOKEN })).json()).toEqual({ success: true });
    const done = Date.now() + 20_000;
    while ((await app.sql.one<{ status: string }>("SELECT status FROM sms_campaigns WHERE id = $1", [c.id])).status !== "FINISHED") {
      if (Date.now() > done) throw new Error("SMS campaign did not finish");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await call("GET", `/api/messages/sms-campaigns/${c.id}/`, { token: TOKEN })).json()).toMatchObject({ status: "FINISHED", triggered: 2 });
  });

  it("the API cannot trigger a campaign made on the web", async () => {
    const res = await app.api("POST", "/api/sms/campaigns/", { token: t.supervisor.token, body: smsForm(sw, { title: "Da web" }) });
    const id = (res.json() as { id: number }).id;
    expect((await call("POST", `/api/messages/sms-campaigns/${id}/trigger/`, { token: TOKEN })).json()).toMatchObject({ error: "ERR_SMS_CAMPAIGN_NOT_FOUND" });
  });
});
