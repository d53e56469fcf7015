import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "./helper.js";

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
