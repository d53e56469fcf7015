import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox } from "../../channels/testing.js";
import { startFakeBots, type FakeBots } from "../../../test/fake-bots/server.js";
import { socketsCaughtUp } from "../../../test/socket-fence.js";
import { waitFor } from "../../../test/wait.js";

let app: TestApp;
let fake: FakeBots;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let noPlan: Awaited<ReturnType<typeof buildTenant>>;
let root: string;
let otherRoot: string;
let noPlanRoot: string;

const superOf = async (companyId: number) => app.login((await buildUser(app.sql, companyId, { profile: "admin", super: true, name: "Super" })).email);

beforeAll(async () => {
  fake = await startFakeBots();
  process.env.OUTBOUND_ALLOWED_HOSTS = fake.host;
  app = await createTestApp({ dialogflowApiUrl: `${fake.url}/dialogflow` });
  t = await buildTenant(app);
  other = await buildTenant(app);
  noPlan = await buildTenant(app, { plan: { flags: { useIntegrations: false } } });
  root = await superOf(t.companyId);
  otherRoot = await superOf(other.companyId);
  noPlanRoot = await superOf(noPlan.companyId);
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOWED_HOSTS;
  await app.close();
  await fake.close();
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });
const webhook = { type: "webhook", name: "Webhook de vendas", urlN8N: "https://hooks.example.com/vendas" };

describe("queue integrations: who may", () => {
  it("needs a super user of a company whose plan has useIntegrations", async () => {
    expect((await api("GET", "/api/queueIntegration", undefined)).statusCode).toBe(401);
    for (const who of [t.admin, t.supervisor, t.user]) {
      const res = await api("GET", "/api/queueIntegration", who.token);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
      expect((await api("POST", "/api/queueIntegration", who.token, webhook)).statusCode).toBe(403);
    }
    const refused = await api("GET", "/api/queueIntegration", noPlanRoot);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
    expect((await api("POST", "/api/queueIntegration", noPlanRoot, webhook)).statusCode).toBe(403);
    expect((await api("GET", "/api/queueIntegration", root)).statusCode).toBe(200);
  });
});

describe("queue integrations: the rules of each type", () => {
  it("name 2 to 50; url for n8n, webhook and typebot; slug for typebot; projectName and key for dialogflow", async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await api("POST", "/api/queueIntegration", root, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}).join(","), JSON.stringify(body)).toContain(field);
    };
    await bad({ ...webhook, name: "a" }, "name");
    await bad({ ...webhook, name: "x".repeat(51) }, "name");
    await bad({ type: "n8n", name: "Fluxo" }, "urlN8N");
    await bad({ type: "webhook", name: "Gancho", urlN8N: "ftp://x" }, "urlN8N");
    await bad({ type: "typebot", name: "Typebot", urlN8N: "https://typebot.example.com" }, "typebotSlug");
    await bad({ type: "dialogflow", name: "Dialogflow", jsonContent: fake.serviceAccountJson }, "projectName");
    await bad({ type: "dialogflow", name: "Dialogflow", projectName: "atende-bot" }, "jsonContent");
    await bad({ type: "dialogflow", name: "Dialogflow", projectName: "atende-bot", jsonContent: "{not json" }, "jsonContent");
    await bad({ type: "dialogflow", name: "Dialogflow", projectName: "atende-bot", jsonContent: '{"client_email":"a@b","private_key":"nope"}' }, "jsonContent");
    await bad({ type: "zapier", name: "Outro", urlN8N: "https://x.example.com" }, "type");
  });

  it("copies the name to projectName for the HTTP types and applies Typebot's defaults (expiry 1, delay 1000)", async () => {
    const res = await api("POST", "/api/queueIntegration", root, { type: "typebot", name: "Robô de triagem", projectName: "ignored", urlN8N: "https://typebot.example.com", typebotSlug: "triagem" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: "typebot", name: "Robô de triagem", projectName: "Robô de triagem", typebotExpires: 1, typebotDelayMessage: 1000, jsonContent: "" });
  });

  it("seals Dialogflow's key at rest and never returns it; an empty key on edit keeps it", async () => {
    const res = await api("POST", "/api/queueIntegration", root, { type: "dialogflow", name: "Dialogflow", projectName: "atende-bot", jsonContent: fake.serviceAccountJson, language: "en" });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created.jsonContent).toMatch(/^bot@atende-bot\.iam\.gserviceaccount\.com ••••/);
    expect(res.body).not.toContain("PRIVATE KEY");
    const stored = await app.sql.one<{ json_content_sealed: string }>("SELECT json_content_sealed FROM queue_integrations WHERE id = $1", [created.id]);
    expect(stored.json_content_sealed).toMatch(/^v2:test:/);
    expect(stored.json_content_sealed).not.toContain("PRIVATE");
    for (const r of [await api("GET", `/api/queueIntegration/${created.id}`, root), await api("GET", "/api/queueIntegration?limit=all", root)]) {
      expect(r.body).not.toContain("PRIVATE KEY");
      expect(r.body).not.toContain(stored.json_content_sealed);
    }
    const put = await api("PUT", `/api/queueIntegration/${created.id}`, root, { type: "dialogflow", name: "Dialogflow ES", projectName: "atende-bot", jsonContent: "", language: "es" });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: "Dialogflow ES", language: "es", jsonContent: created.jsonContent });
    const after = await app.sql.one<{ json_content_sealed: string }>("SELECT json_content_sealed FROM queue_integrations WHERE id = $1", [created.id]);
    expect(after.json_content_sealed).toBe(stored.json_content_sealed);
    // the language list is the spec's
    expect((await api("PUT", `/api/queueIntegration/${created.id}`, root, { type: "dialogflow", name: "Dialogflow ES", projectName: "atende-bot", language: "fr" })).statusCode).toBe(400);
  });

  it("testSession runs a real detectIntent (token exchange, then the agent's answer); a wrong project is ERR_INTEGRATION_TEST_FAILED", async () => {
    const ok = await api("POST", "/api/queueIntegration/testSession", root, { projectName: "atende-bot", jsonContent: fake.serviceAccountJson, language: "pt-BR" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ ok: true, reply: "Resposta (pt-BR): Olá" });
    expect(fake.requests.some((r) => r.path === "/oauth2/token")).toBe(true);
    const wrong = await api("POST", "/api/queueIntegration/testSession", root, { projectName: "outro-projeto", jsonContent: fake.serviceAccountJson });
    expect(wrong.statusCode).toBe(502);
    expect(wrong.json().error).toBe("ERR_INTEGRATION_TEST_FAILED");
    expect((await api("POST", "/api/queueIntegration/testSession", root, { projectName: "atende-bot", jsonContent: "[]" })).json().error).toBe("ERR_INTEGRATION_BAD_CREDENTIALS");
    expect((await api("POST", "/api/queueIntegration/testSession", root, { projectName: "atende-bot" })).statusCode).toBe(400);
  });
});

describe("queue integrations: list, edit, delete, company scope, events", () => {
  it("lists with search and limit=all; another company's integration is not found; delete detaches it from queues", async () => {
    const a = (await api("POST", "/api/queueIntegration", root, { type: "n8n", name: "Fluxo n8n", urlN8N: "https://n8n.example.com/webhook/1" })).json();
    const page = (await api("GET", "/api/queueIntegration?searchParam=n8n", root)).json();
    expect(page.queueIntegrations.map((i: { name: string }) => i.name)).toEqual(["Fluxo n8n"]);
    expect((await api("GET", "/api/queueIntegration?limit=all", otherRoot)).json().queueIntegrations).toEqual([]);
    expect((await api("GET", `/api/queueIntegration/${a.id}`, otherRoot)).statusCode).toBe(404);
    expect((await api("PUT", `/api/queueIntegration/${a.id}`, otherRoot, webhook)).statusCode).toBe(404);
    expect((await api("DELETE", `/api/queueIntegration/${a.id}`, otherRoot)).statusCode).toBe(404);
    expect((await api("GET", `/api/queueIntegration/${a.id}`, root)).json().name).toBe("Fluxo n8n");
    const put = await api("PUT", `/api/queueIntegration/${a.id}`, root, { ...webhook, name: "Webhook" });
    expect(put.json()).toMatchObject({ type: "webhook", name: "Webhook", projectName: "Webhook" });
    const queue = await app.sql.one<{ id: number }>("INSERT INTO queues (company_id, name, color, integration_id) VALUES ($1, 'Vendas', '#111111', $2) RETURNING id", [t.companyId, a.id]);
    expect((await api("DELETE", `/api/queueIntegration/${a.id}`, root)).statusCode).toBe(200);
    expect((await api("GET", `/api/queueIntegration/${a.id}`, root)).statusCode).toBe(404);
    expect((await app.sql.one<{ integration_id: number | null }>("SELECT integration_id FROM queues WHERE id = $1", [queue.id])).integration_id).toBeNull();
    expect((await api("GET", "/api/queueIntegration/abc", root)).statusCode).toBe(400);
  });

  it("tells the company's super users live (create, update, delete) on company-{id}-queueIntegration, and no one else", async () => {
    const { io } = await import("socket.io-client");
    const url = await app.listen();
    const connect = (token: string) => io(url, { path: "/socket.io", auth: { token }, transports: ["websocket"], forceNew: true });
    const events: { who: string; payload: { action: string } }[] = [];
    const sockets = [
      ["root", connect(root)],
      ["admin", connect(t.admin.token)],
      ["otherRoot", connect(otherRoot)],
    ] as const;
    await Promise.all(sockets.map(([, s]) => new Promise<void>((r) => s.on("connect", () => r()))));
    for (const [who, s] of sockets) {
      s.onAny((event: string, payload: { action: string }) => {
        if (event.endsWith("-queueIntegration")) events.push({ who, payload: { action: `${event === `company-${t.companyId}-queueIntegration` ? "" : "WRONG CHANNEL "}${payload.action}` } });
      });
    }
    await socketsCaughtUp(app, sockets.map(([, s]) => s)); // every socket is in its rooms
    const c = (await api("POST", "/api/queueIntegration", root, webhook)).json();
    await api("PUT", `/api/queueIntegration/${c.id}`, root, { ...webhook, name: "Outro nome" });
    await api("DELETE", `/api/queueIntegration/${c.id}`, root);
    await waitFor(async () => events.length >= 3, 5000, "the three events");
    await socketsCaughtUp(app, sockets.map(([, s]) => s));
    for (const [, s] of sockets) s.close();
    expect(events.map((e) => `${e.who}:${e.payload.action}`)).toEqual(["root:create", "root:update", "root:delete"]);
  });

  it("a connection takes an integration of its own company only (integrationId on the whatsapp API)", async () => {
    const mine = (await api("POST", "/api/queueIntegration", root, webhook)).json();
    const theirs = (await api("POST", "/api/queueIntegration", otherRoot, webhook)).json();
    const w = await connectedSandbox(app, t.admin.token, { name: "Com bot", fields: { integrationId: mine.id } });
    expect((await api("GET", `/api/whatsapp/${w}`, t.admin.token)).json().integrationId).toBe(mine.id);
    const refused = await api("PUT", `/api/whatsapp/${w}`, t.admin.token, { integrationId: theirs.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toMatchObject({ integrationId: "Integração não encontrada" });
    expect((await api("PUT", `/api/whatsapp/${w}`, t.admin.token, { integrationId: null })).json().integrationId).toBeNull();
  });
});
