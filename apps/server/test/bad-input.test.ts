import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "./helper.js";
import { webhookSecret } from "../src/domains/billing/repository.js";

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await createTestApp();
  token = (await buildTenant(app)).admin.token;
});
afterAll(async () => {
  await app.close();
});

describe("bad input never becomes a 500", () => {
  it("answers every route's junk ids, junk queries and junk bodies with a catalogue error", async () => {
    const routes = app.routes;
    expect(routes.length).toBeGreaterThan(80);
    const failures: string[] = [];
    for (const { method, url } of routes) {
      for (const id of ["abc", "99999999", "-1"]) {
        const path = url.replace(/:[A-Za-z]+/g, id) + "?pageNumber=x&searchParam=%00&queueIds=[oops&status=nope";
        for (const body of [undefined, { junk: true, name: 12, ids: "x" }]) {
          const res = await app.api(method, path, { token, body: method === "GET" || method === "DELETE" ? undefined : body });
          if (res.statusCode >= 500) failures.push(`${method} ${path} → ${res.statusCode} ${res.body.slice(0, 120)}`);
          else if (res.statusCode >= 400 && !/^ERR_/.test(String(res.json().error ?? ""))) failures.push(`${method} ${path} → ${res.statusCode} without a code`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});

describe("bad input on e-mail campaigns and senders", () => {
  it("answers junk filters, ids and bodies with a 400 catalogue error", async () => {
    const admin = (await buildTenant(app)).admin.token;
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/email/campaigns/?page=x"],
      ["GET", "/api/email/campaigns/?page_size=0"],
      ["GET", "/api/email/campaigns/?start_date=2026-01-01"],
      ["GET", "/api/email/campaigns/?start_date=31/02/2026"],
      ["GET", "/api/email/campaigns/?status=nope"],
      ["GET", "/api/email/campaigns/?cost_center_id=99999999999"],
      ["POST", "/api/email/campaigns/", { title: ["x"], filename: "a.csv", cost_center_id: 1, sender: 1, template: 1 }],
      ["POST", "/api/email/campaigns/", { title: "x", filename: "a.csv", cost_center_id: "abc", sender: 1, template: 1 }],
      ["PATCH", "/api/email/campaigns/1.5/pause/"],
      ["GET", "/api/email/campaigns/1/invalid-rows/?page=0"],
      ["PATCH", "/api/email/campaigns/abc/resume/"],
      ["POST", "/api/email/campaigns/-1/cancel/"],
      ["POST", "/api/email/senders/", { email_address: "não é e-mail" }],
      ["POST", "/api/email/senders/", { email_address: 12 }],
      ["GET", "/api/email/sandbox/?page=0"],
    ];
    for (const [method, url, body] of cases) {
      const res = await app.api(method, url, { token: admin, body });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(String(res.json().error)).toMatch(/^ERR_/);
    }
  });
});

describe("bad input on the campaign templates, numbers and cost centers", () => {
  it("answers junk filters, ids and bodies with a 400 catalogue error", async () => {
    // a session of its own: the sweep above calls the logout route with the shared token
    const admin = (await buildTenant(app)).admin.token;
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/sms/cost-center/?page=x"],
      ["GET", "/api/sms/cost-center/?page=99999999999"],
      ["GET", `/api/sms/cost-center/?name=${"x".repeat(201)}`],
      ["POST", "/api/sms/cost-center/", { name: "a\u0000b" }],
      ["POST", "/api/sms/cost-center/", { name: ["x"] }],
      ["PUT", "/api/sms/cost-center/1.5/", { name: "x" }],
      ["GET", "/api/templates/?id=1.5"],
      ["GET", "/api/templates/?BusinessId=99999999999"],
      ["GET", "/api/templates/?TemplateTypeId=abc"],
      ["GET", "/api/templates/?isValid=yes"],
      ["GET", "/api/templates/?active=TRUE"],
      ["GET", `/api/templates/?name=${"n".repeat(201)}`],
      ["GET", "/api/phones/?BusinessId=abc&output=true"],
      ["GET", "/api/phones/?output=1"],
      ["PUT", "/api/phones/1", { throughputPerSecond: 1e12 }],
      ["PUT", "/api/phones/1", { throughputPerSecond: null }],
      ["PUT", "/api/phones/1", {}],
    ];
    for (const [method, url, body] of cases) {
      const res = await app.api(method, url, { token: admin, body });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
  });
});

describe("bad input on the opt-out list", () => {
  it("answers junk filters, channels, addresses and bodies with a 400 catalogue error", async () => {
    const admin = (await buildTenant(app)).admin.token;
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/opt-outs?page=x"],
      ["GET", "/api/opt-outs?page=0"],
      ["GET", "/api/opt-outs?channel=whatsapp"],
      ["GET", `/api/opt-outs?search=${"x".repeat(255)}`],
      ["POST", "/api/opt-outs", { channel: "sms" }],
      ["POST", "/api/opt-outs", { channel: "fax", address: "11999990001" }],
      ["POST", "/api/opt-outs", { channel: "email", address: ["a@b.test"] }],
      ["POST", "/api/opt-outs", { channel: "email", address: `${"a".repeat(250)}@b.test` }],
      ["POST", "/api/opt-outs", { channel: "sms", address: "a\u0000b" }],
      ["POST", "/api/opt-outs", "not json"],
      ["DELETE", "/api/opt-outs/fax/11999990001"],
      ["DELETE", `/api/opt-outs/email/${"a".repeat(300)}%40b.test`],
    ];
    for (const [method, url, body] of cases) {
      const res = await app.api(method, url, { token: admin, body });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
  });
});

describe("bad input on the SMS and e-mail templates and the e-mail tool", () => {
  it("answers junk filters, ids and bodies with a 400 catalogue error", async () => {
    const admin = (await buildTenant(app)).admin.token;
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/sms/templates/?page=x"],
      ["GET", "/api/sms/templates/?page=0"],
      ["GET", `/api/sms/templates/?title=${"x".repeat(201)}`],
      ["GET", "/api/sms/templates/1.5/"],
      ["POST", "/api/sms/templates/", { title: ["x"], content: "Oi, tudo?" }],
      ["POST", "/api/sms/templates/", { title: "Aviso", content: { a: 1 } }],
      ["PUT", "/api/sms/templates/abc/", { title: "Aviso", content: "Oi, tudo?" }],
      ["GET", "/api/email/templates/?page=99999999999"],
      ["GET", "/api/email/templates/-1/"],
      ["POST", "/api/email/templates/", { title: "Aviso", subject: "Assunto", content: null }],
      ["POST", "/api/email/templates/", { title: "Aviso", subject: 5, content: "<p>x</p>" }],
      ["PUT", "/api/email/templates/1/", "not json at all"],
      ["POST", "/api/enviar-email", { email: ["a@b.test"], assunto: "A", mensagem: "M" }],
      ["POST", "/api/enviar-email", { email: "a@b.test", assunto: "A", mensagem: "M", tokenSenha: 12 }],
      ["POST", "/api/enviar-email", { email: "a@b.test" }],
      ["GET", "/api/listar-emails-enviados?page=abc"],
    ];
    for (const [method, url, body] of cases) {
      const res = await app.api(method, url, { token: admin, body });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().error).toMatch(/^ERR_/);
    }
  });
});

describe("bad input on the SMS campaigns", () => {
  it("answers junk filters, ids and bodies with a 400 catalogue error", async () => {
    const admin = (await buildTenant(app)).admin.token;
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/sms/report/?page=x"],
      ["GET", "/api/sms/report/?page_size=1000"],
      ["GET", "/api/sms/report/?start_date=2026-01-01"],
      ["GET", "/api/sms/report/?end_date=31/02/2026"],
      ["GET", "/api/sms/report/?status=NOPE"],
      ["GET", "/api/sms/report/?cost_center_id=99999999999"],
      ["POST", "/api/sms/campaigns/", { title: ["x"] }],
      ["POST", "/api/sms/campaigns/", { cost_center_id: "abc" }],
      ["POST", "/api/sms/campaigns/", { tags: "vip" }],
      ["POST", "/api/sms/campaigns/", { matrix_variables: [{ template_variable: "", file_index: 3 }] }],
      ["POST", "/api/sms/campaigns/", { start_hour: { h: 1 } }],
      ["PATCH", "/api/sms/campaigns/1.5/pause/"],
      ["GET", "/api/sms/campaigns/1/invalid-rows/?page_size=500"],
      ["POST", "/api/sms/sandbox/messages/1/reply/", { text: "" }],
      ["GET", "/api/sms/sandbox/messages/?page=0"],
    ];
    for (const [method, url, body] of cases) {
      const res = await app.api(method, url, { token: admin, body });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    // the upload of a campaign that does not exist, with any type of body
    const put = await app.app.inject({ method: "PUT", url: "/api/sms/campaigns/99999/file/", payload: "x", headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" } });
    expect(put.statusCode).toBe(404);
    // Twilio's webhooks: junk without a signature is refused, never a 500
    const hook = await app.app.inject({ method: "POST", url: "/api/webhooks/sms/twilio/status?row=abc", payload: "%%%=&&", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(hook.statusCode).toBe(403);
  });
});

describe("bad input on the AI prompts", () => {
  it("answers a super user's junk ids and bodies with a 400/404 catalogue error", async () => {
    const t = await buildTenant(app);
    const su = await buildUser(app.sql, t.companyId, { profile: "admin", super: true });
    const superToken = await app.login(su.email);
    const queueId = await buildQueue(app.sql, t.companyId);
    const ok = { name: "Bot", prompt: "Seja gentil", apiKey: "sk-1234", queueId };
    const cases: [string, string, unknown, number][] = [
      ["POST", "/api/prompt", { junk: true, name: 12 }, 400],
      ["POST", "/api/prompt", { ...ok, temperature: "quente" }, 400],
      ["POST", "/api/prompt", { ...ok, maxTokens: 1e12 }, 400],
      ["POST", "/api/prompt", { ...ok, queueId: "x" }, 400],
      ["POST", "/api/prompt", { ...ok, queueId: 2 ** 40 }, 400],
      ["POST", "/api/prompt", { ...ok, voiceRegion: "a/b" }, 400],
      ["PUT", "/api/prompt/99999999", ok, 404],
      ["PUT", "/api/prompt/abc", ok, 400],
      ["GET", "/api/prompt/-1", undefined, 400],
    ];
    const wrong: string[] = [];
    for (const [method, url, body, status] of cases) {
      const res = await app.api(method, url, { token: superToken, body });
      if (res.statusCode !== status || !/^ERR_/.test(String(res.json().error))) wrong.push(`${method} ${url} ${JSON.stringify(body)} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("bad input on the queue integrations (super users only, so the sweep above meets their gate)", () => {
  it("answers junk ids, queries and bodies with a 4xx catalogue error", async () => {
    const companyId = (await buildTenant(app)).companyId;
    const root = await app.login((await buildUser(app.sql, companyId, { profile: "admin", super: true })).email);
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/queueIntegration?pageNumber=x"],
      ["GET", "/api/queueIntegration?limit=10"],
      ["GET", "/api/queueIntegration/abc"],
      ["GET", "/api/queueIntegration/99999999999"],
      ["POST", "/api/queueIntegration", { junk: true, name: 12 }],
      ["POST", "/api/queueIntegration", { type: "webhook", name: "ok", urlN8N: "javascript:alert(1)" }],
      ["POST", "/api/queueIntegration", { type: "typebot", name: "ok", urlN8N: "https://x.example.com", typebotSlug: "s", typebotDelayMessage: -1 }],
      ["POST", "/api/queueIntegration", { type: "dialogflow", name: "ok", projectName: "p", jsonContent: '{"client_email":1}' }],
      ["PUT", "/api/queueIntegration/-1", { type: "webhook", name: "ok", urlN8N: "https://x.example.com" }],
      ["POST", "/api/queueIntegration/testSession", { projectName: "p", jsonContent: "nope" }],
      ["POST", "/api/queueIntegration/testSession", { projectName: ["p"] }],
    ];
    for (const [method, url, body] of cases) {
      const res = await app.api(method, url, { token: root, body });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(res.json().error, `${method} ${url}`).toMatch(/^ERR_/);
    }
    expect((await app.api("DELETE", "/api/queueIntegration/99999999", { token: root })).json().error).toBe("ERR_QUEUE_INTEGRATION_NOT_FOUND");
  });
});

describe("bad input on billing (invoices, Pix checkout, PSP webhook, sandbox PSP)", () => {
  it("answers junk queries, bodies and secrets with a 4xx catalogue error", async () => {
    const admin = (await buildTenant(app)).admin.token;
    const secret = await webhookSecret(app.sql, app.ctx.secrets);
    const valid = { firstName: "Ana", address2: "Rua", city: "Recife", zipcode: "50000", country: "BR" };
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/invoices/all?pageNumber=x"],
      ["GET", "/api/invoices/all?status=nope"],
      ["GET", "/api/invoices/all?companyId=abc"],
      ["POST", "/api/subscription", { junk: true }],
      ["POST", "/api/subscription", { ...valid, invoiceId: "abc" }],
      ["POST", "/api/subscription", { ...valid, invoiceId: 99999999 }],
      ["POST", "/api/subscription", { ...valid, invoiceId: 99999999999999 }],
      ["POST", "/api/subscription", { ...valid, country: "AR", invoiceId: 1 }],
      ["POST", `/api/pix/webhook/${secret}`, { pix: "nope" }],
      ["POST", `/api/pix/webhook/${secret}/pix`, { pix: [{ endToEndId: 1, valor: [] }] }],
      ["POST", "/api/pix/webhook/x/pix", { pix: [] }],
      ["GET", "/api/pix/sandbox/charges/nope"],
      ["POST", "/api/pix/sandbox/pay", { txid: "short" }],
      ["POST", "/api/pix/sandbox/pay", { txid: "abcdefghijklmnopqrstuvwxyz0123", amount: -1 }],
      ["POST", "/api/pix/sandbox/pay", { txid: "abcdefghijklmnopqrstuvwxyz0123" }],
    ];
    for (const [method, url, body] of cases) {
      const res = await app.api(method, url, { token: admin, body });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(res.json().error, `${method} ${url}`).toMatch(/^ERR_/);
    }
  });
});
