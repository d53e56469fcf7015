import { channel } from "@atende/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { expectEvery } from "../../../test/expect-every.js";

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let superToken: string;
let otherSuper: string;
let queueId: number;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  other = await buildTenant(app);
  const s = await buildUser(app.sql, t.companyId, { profile: "admin", super: true, name: "Super" });
  superToken = await app.login(s.email);
  const o = await buildUser(app.sql, other.companyId, { profile: "admin", super: true, name: "Other super" });
  otherSuper = await app.login(o.email);
  queueId = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
});
afterAll(async () => {
  await app.close();
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });
const valid = () => ({ name: "Assistente", prompt: "Você é a assistente da loja.", apiKey: "sk-live-abcdefgh1234", queueId });

describe("prompts: access", () => {
  it("is for super users of a company whose plan has useOpenAi", async () => {
    expect((await api("GET", "/api/prompt", undefined)).statusCode).toBe(401);
    expect((await api("GET", "/api/prompt", t.admin.token)).statusCode).toBe(403);
    expect((await api("POST", "/api/prompt", t.admin.token, valid())).statusCode).toBe(403);
    expect((await api("GET", "/api/prompt", superToken)).json()).toEqual({ prompts: [] });
    const noPlan = await buildTenant(app, { plan: { flags: { useOpenAi: false } } });
    const su = await buildUser(app.sql, noPlan.companyId, { profile: "admin", super: true });
    const res = await api("GET", "/api/prompt", await app.login(su.email));
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
  });
});

describe("prompts: CRUD", () => {
  it("creates with the spec defaults, seals the key and never returns it whole", async () => {
    const res = await api("POST", "/api/prompt", superToken, valid());
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      name: "Assistente",
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      voice: "texto",
      baseUrl: "https://api.openai.com/v1",
      model: "gpt-4o-mini",
      queueId,
      queue: { id: queueId, name: "Vendas" },
      apiKey: "••••1234",
    });
    expect(res.body).not.toContain("sk-live-abcdefgh1234");
    const stored = await app.sql.one<{ api_key: string }>("SELECT api_key FROM prompts WHERE id = $1", [p.id]);
    expect(stored.api_key).toMatch(/^v2:test:/);
    expect(stored.api_key).not.toContain("abcdefgh");
    const list = await api("GET", "/api/prompt", superToken);
    expect(list.json().prompts.map((x: { id: number }) => x.id)).toEqual([p.id]);
    expect(list.body).not.toContain("sk-live");
  });

  it("validates: name, prompt, queue ('Informe o setor'), key on create, bounds of maxTokens, temperature, maxMessages, voice", async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await api("POST", "/api/prompt", superToken, { ...valid(), ...body });
      expect(res.statusCode, res.body).toBe(400);
      return res.json();
    };
    expect((await bad({ name: " " })).fields).toHaveProperty("name");
    expect((await bad({ prompt: "" })).fields).toHaveProperty("prompt");
    expect(JSON.stringify((await bad({ queueId: undefined })).fields)).toContain("Informe o setor");
    expect(JSON.stringify(await bad({ queueId: 999999 }))).toContain("Informe o setor");
    expect((await bad({ apiKey: "" })).error).toBe("ERR_PROMPT_API_KEY_REQUIRED");
    expect((await bad({ temperature: 2.5 })).fields).toHaveProperty("temperature");
    expect((await bad({ temperature: -0.1 })).fields).toHaveProperty("temperature");
    expect((await bad({ maxTokens: 0 })).fields).toHaveProperty("maxTokens");
    expect((await bad({ maxMessages: 51 })).fields).toHaveProperty("maxMessages");
    expect((await bad({ voice: "pt-BR-Inexistente" })).fields).toHaveProperty("voice");
    expect((await bad({ baseUrl: "ftp://x" })).fields).toHaveProperty("baseUrl");
    // another company's queue is not this company's
    const theirs = await buildQueue(app.sql, other.companyId, { name: "Deles" });
    expect(JSON.stringify(await bad({ queueId: theirs }))).toContain("Informe o setor");
  });

  it("updates keeping the key when none is typed, replaces it when one is; another company's prompt is not found", async () => {
    const p = (await api("POST", "/api/prompt", superToken, { ...valid(), name: "Editar" })).json();
    const put = await api("PUT", `/api/prompt/${p.id}`, superToken, {
      ...valid(),
      apiKey: "",
      name: "Editado",
      temperature: 0.3,
      voice: "pt-BR-FranciscaNeural",
      voiceKey: "azure-secret-7777",
      voiceRegion: "brazilsouth",
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: "Editado", temperature: 0.3, apiKey: "••••1234", voiceKey: "••••7777", voiceRegion: "brazilsouth" });
    const put2 = await api("PUT", `/api/prompt/${p.id}`, superToken, { ...valid(), apiKey: "sk-new-key-9999" });
    expect(put2.json()).toMatchObject({ apiKey: "••••9999", voiceKey: "••••7777" });
    expect((await api("GET", `/api/prompt/${p.id}`, superToken)).json().name).toBe("Assistente");
    expect((await api("GET", `/api/prompt/${p.id}`, otherSuper)).statusCode).toBe(404);
    expect((await api("PUT", `/api/prompt/${p.id}`, otherSuper, valid())).statusCode).toBe(404);
    expect((await api("DELETE", `/api/prompt/${p.id}`, otherSuper)).statusCode).toBe(404);
    expect((await api("GET", "/api/prompt", otherSuper)).json()).toEqual({ prompts: [] });
  });

  it("deletes with a message and detaches it from queues and connections", async () => {
    const p = (await api("POST", "/api/prompt", superToken, { ...valid(), name: "Apagar" })).json();
    await app.sql.exec("UPDATE queues SET prompt_id = $1 WHERE id = $2", [p.id, queueId]);
    const del = await api("DELETE", `/api/prompt/${p.id}`, superToken);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: "Prompt deleted" });
    expect((await app.sql.one<{ prompt_id: number | null }>("SELECT prompt_id FROM queues WHERE id = $1", [queueId])).prompt_id).toBeNull();
    expect((await api("DELETE", `/api/prompt/${p.id}`, superToken)).statusCode).toBe(404);
    expect((await api("GET", `/api/prompt/${p.id}`, superToken)).json().error).toBe("ERR_PROMPT_NOT_FOUND");
  });
});

describe("prompts: live events", () => {
  it("are sent to the company's room on company-{id}-prompt, never to another company's", async () => {
    const seen: { room: unknown; event: string; payload: unknown }[] = [];
    const original = app.ctx.realtime.emit.bind(app.ctx.realtime);
    app.ctx.realtime.emit = (room, event, payload) => {
      seen.push({ room, event, payload });
      original(room, event, payload);
    };
    try {
      const p = (await api("POST", "/api/prompt", superToken, { ...valid(), name: "Eventos" })).json();
      await api("PUT", `/api/prompt/${p.id}`, superToken, { ...valid(), name: "Eventos 2" });
      await api("DELETE", `/api/prompt/${p.id}`, superToken);
      const mine = seen.filter((s) => s.event === channel.prompt(t.companyId));
      expect(mine.map((s) => (s.payload as { action: string }).action)).toEqual(["create", "update", "delete"]);
      expectEvery(mine, (s) => s.room === `company:${t.companyId}`);
      expect(JSON.stringify(mine)).not.toContain("sk-live");
      expect(seen.some((s) => s.event === channel.prompt(other.companyId))).toBe(false);
    } finally {
      app.ctx.realtime.emit = original;
    }
  });
});
