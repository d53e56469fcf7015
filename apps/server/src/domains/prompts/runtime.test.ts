import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, phoneOutbox } from "../../channels/testing.js";
import { startFakeAi, type FakeAi } from "../../../test/fake-openai/server.js";
import { HANDOFF_REPLY, PROVIDER_ERROR_REPLY } from "./runtime.js";
import { waitFor } from "../../../test/wait.js";

let app: TestApp;
let ai: FakeAi;
let t: Awaited<ReturnType<typeof buildTenant>>;
let superToken: string;
let queueId: number;
let wa: number;
let phone = 11987650000;

beforeAll(async () => {
  ai = await startFakeAi();
  // the fake's exact host and port are allowed; "localhost" (the same server by name) is not
  process.env.OUTBOUND_ALLOWED_HOSTS = new URL(ai.url).host;
  process.env.AZURE_TTS_URL = `${ai.url}/cognitiveservices/v1`;
  app = await createTestApp();
  t = await buildTenant(app);
  const s = await buildUser(app.sql, t.companyId, { profile: "admin", super: true });
  superToken = await app.login(s.email);
  queueId = await buildQueue(app.sql, t.companyId, { name: "Atendimento" });
  wa = await connectedSandbox(app, t.admin.token, { queueIds: [queueId] });
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOWED_HOSTS;
  delete process.env.AZURE_TTS_URL;
  await app.close();
  await ai.close();
});

async function usePrompt(o: Record<string, unknown> = {}): Promise<number> {
  const res = await app.api("POST", "/api/prompt", {
    token: superToken,
    body: { name: "Bot", prompt: "Você é o assistente da Loja Azul.", apiKey: "sk-test-123456", baseUrl: `${ai.url}/v1`, queueId, ...o },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  const id = res.json().id as number;
  await app.sql.exec("UPDATE queues SET prompt_id = $1 WHERE id = $2", [id, queueId]);
  return id;
}

const nextPhone = () => String(++phone);
const outbox = (number: string) => phoneOutbox(app, t.admin.token, wa, number);
const ticketOf = (id: number) =>
  app.sql.one<{ status: string; user_id: number | null; prompt_handoff: boolean; prompt_id: number | null; queue_id: number | null }>(
    "SELECT status, user_id, prompt_handoff, prompt_id, queue_id FROM tickets WHERE id = $1",
    [id],
  );
const chatRequests = () => ai.requests.filter((r) => r.path === "/v1/chat/completions");

describe("an AI prompt answers the queue's customers", () => {
  it("sends the model's answer as the bot, with the system prompt, the history (last maxMessages), max_tokens and temperature", async () => {
    await usePrompt({ maxMessages: 2, maxTokens: 120, temperature: 0.4, model: "modelo-x" });
    // the first question gets id 99 and what follows 100, 101: the history must be the last two by
    // number (as text, "99" sorts after "101" and the first question would come back)
    await app.sql.exec("SELECT setval(pg_get_serial_sequence('messages', 'id'), 98)");
    const number = nextPhone();
    ai.replies.push({ content: "Olá! Temos camisetas azuis." });
    const first = await inbound(app, t.admin.token, wa, { number, body: "Oi, vocês têm camisetas?" });
    await waitFor(async () => (await outbox(number)).includes("Olá! Temos camisetas azuis."));
    const sent = await app.sql.one<{ user_id: number | null; from_me: boolean }>(
      "SELECT user_id, from_me FROM messages WHERE ticket_id = $1 AND body = 'Olá! Temos camisetas azuis.'",
      [first.ticketId],
    );
    expect(sent).toEqual({ user_id: null, from_me: true });
    const req = chatRequests().at(-1)!;
    expect(req.headers.authorization).toBe("Bearer sk-test-123456");
    expect(req.json).toMatchObject({ model: "modelo-x", max_tokens: 120, temperature: 0.4 });
    const msgs = req.json!.messages as { role: string; content: string }[];
    expect(msgs[0]!.role).toBe("system");
    expect(msgs[0]!.content).toContain("Você é o assistente da Loja Azul.");
    expect(msgs[0]!.content).toContain("#atendente");
    expect(msgs.at(-1)).toEqual({ role: "user", content: "Oi, vocês têm camisetas?" });

    ai.replies.push({ content: "Temos P, M e G." });
    await inbound(app, t.admin.token, wa, { number, body: "Quais tamanhos?" });
    await waitFor(async () => (await outbox(number)).includes("Temos P, M e G."));
    // two stored messages at most: the answer and the new question, not the first question
    const last = chatRequests().at(-1)!.json!.messages as { role: string; content: string }[];
    expect(last.slice(1)).toEqual([
      { role: "assistant", content: "Olá! Temos camisetas azuis." },
      { role: "user", content: "Quais tamanhos?" },
    ]);
    expect(last.some((m) => m.content === "Oi, vocês têm camisetas?")).toBe(false);
    expect(await ticketOf(first.ticketId)).toMatchObject({ status: "pending", user_id: null, prompt_handoff: false });
  });

  it("answers for the connection's prompt when the queue has none", async () => {
    const id = await usePrompt({ name: "Conexão" });
    await app.sql.exec("UPDATE queues SET prompt_id = NULL WHERE id = $1", [queueId]);
    await app.sql.exec("UPDATE whatsapps SET prompt_id = $1 WHERE id = $2", [id, wa]);
    try {
      const number = nextPhone();
      ai.replies.push({ content: "Resposta da conexão" });
      const r = await inbound(app, t.admin.token, wa, { number, body: "Oi" });
      await waitFor(async () => (await outbox(number)).includes("Resposta da conexão"));
      expect((await ticketOf(r.ticketId)).prompt_id).toBe(id);
    } finally {
      await app.sql.exec("UPDATE whatsapps SET prompt_id = NULL WHERE id = $1", [wa]);
    }
  });

  it("hands the ticket to the queue's agents when the model answers the marker, and stays silent afterwards", async () => {
    await usePrompt();
    const number = nextPhone();
    ai.replies.push({ content: "#atendente" });
    const r = await inbound(app, t.admin.token, wa, { number, body: "Quero falar com uma pessoa" });
    await waitFor(async () => (await outbox(number)).includes(HANDOFF_REPLY));
    expect(await ticketOf(r.ticketId)).toMatchObject({ status: "pending", user_id: null, prompt_handoff: true, queue_id: queueId });
    const calls = chatRequests().length;
    await inbound(app, t.admin.token, wa, { number, body: "Alô?" });
    await new Promise((res) => setTimeout(res, 2500));
    expect(chatRequests().length).toBe(calls);
    expect(await outbox(number)).toEqual([HANDOFF_REPLY]);
  });

  it("leaves a ticket to the queue's bot (integration) when the queue has both, also after the bot hands it over", async () => {
    await usePrompt();
    const bot = await app.sql.one<{ id: number }>(
      "INSERT INTO queue_integrations (company_id, type, name, url_n8n) VALUES ($1, 'webhook', 'Bot', 'http://127.0.0.1:9/hook') RETURNING id",
      [t.companyId],
    );
    await app.sql.exec("UPDATE queues SET integration_id = $1 WHERE id = $2", [bot.id, queueId]);
    try {
      const calls = chatRequests().length;
      const number = nextPhone();
      const r = await inbound(app, t.admin.token, wa, { number, body: "Oi" });
      // the bot's address is refused (not allow-listed): it hands over at once; the prompt stays silent
      await waitFor(async () => {
        const tk = await app.sql.one<{ integration_id: number | null; use_integration: boolean }>("SELECT integration_id, use_integration FROM tickets WHERE id = $1", [r.ticketId]);
        return tk.integration_id === bot.id && !tk.use_integration;
      });
      await inbound(app, t.admin.token, wa, { number, body: "Alguém?" });
      await new Promise((res) => setTimeout(res, 2500));
      expect(chatRequests().length).toBe(calls);
      expect((await app.sql.one<{ integration_id: number | null }>("SELECT integration_id FROM tickets WHERE id = $1", [r.ticketId])).integration_id).toBe(bot.id);
    } finally {
      await app.sql.exec("UPDATE queues SET integration_id = NULL WHERE id = $1", [queueId]);
    }
  });

  it("does not answer a ticket an agent has taken", async () => {
    await usePrompt();
    const number = nextPhone();
    ai.replies.push({ content: "Primeira resposta" });
    const r = await inbound(app, t.admin.token, wa, { number, body: "Oi" });
    await waitFor(async () => (await outbox(number)).includes("Primeira resposta"));
    await app.sql.exec("UPDATE tickets SET status = 'open', user_id = $2 WHERE id = $1", [r.ticketId, t.admin.id]);
    const calls = chatRequests().length;
    await inbound(app, t.admin.token, wa, { number, body: "Ainda aí?" });
    await new Promise((res) => setTimeout(res, 2500));
    expect(chatRequests().length).toBe(calls);
  });

  it("after a provider error the customer gets a short message and the ticket goes to a human", async () => {
    await usePrompt();
    const number = nextPhone();
    ai.replies.push({ status: 500 });
    const r = await inbound(app, t.admin.token, wa, { number, body: "Oi" });
    await waitFor(async () => (await outbox(number)).includes(PROVIDER_ERROR_REPLY));
    expect(await ticketOf(r.ticketId)).toMatchObject({ status: "pending", user_id: null, prompt_handoff: true });
  });

  it("a refused private address (not allow-listed) transfers the same way, without reaching the server", async () => {
    await usePrompt({ baseUrl: `${ai.url.replace("127.0.0.1", "localhost")}/v1` });
    const number = nextPhone();
    const calls = ai.requests.length;
    const r = await inbound(app, t.admin.token, wa, { number, body: "Oi" });
    await waitFor(async () => (await outbox(number)).includes(PROVIDER_ERROR_REPLY));
    expect(ai.requests.length).toBe(calls);
    expect((await ticketOf(r.ticketId)).prompt_handoff).toBe(true);
  });

  it("transcribes a customer's audio note before answering", async () => {
    await usePrompt();
    const number = nextPhone();
    ai.transcript = "Qual o horário de funcionamento?";
    ai.replies.push({ content: "Das 8h às 18h." });
    const audio = Buffer.from("fake-ogg-voice-note");
    const r = await inbound(app, t.admin.token, wa, { number, body: "", mediaType: "audio", mediaBase64: audio.toString("base64"), mimetype: "audio/ogg" });
    await waitFor(async () => (await outbox(number)).includes("Das 8h às 18h."));
    const tr = ai.requests.filter((x) => x.path === "/v1/audio/transcriptions").at(-1)!;
    expect(tr.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(tr.body.includes(audio)).toBe(true);
    expect(tr.body.toString()).toContain('name="model"');
    const msgs = chatRequests().at(-1)!.json!.messages as { role: string; content: string }[];
    expect(msgs.at(-1)).toEqual({ role: "user", content: "Qual o horário de funcionamento?" });
    expect((await app.sql.one<{ body: string }>("SELECT body FROM messages WHERE id = $1", [r.messageId])).body).toBe("Qual o horário de funcionamento?");
  });

  it("with a voice chosen, the answer is synthesised by Azure Speech (SSML, key header, Ogg/Opus) and sent as audio", async () => {
    await usePrompt({ voice: "pt-BR-FranciscaNeural", voiceKey: "azure-key-9876", voiceRegion: "brazilsouth" });
    const number = nextPhone();
    ai.replies.push({ content: "Seu pedido & entrega <amanhã>." });
    const r = await inbound(app, t.admin.token, wa, { number, body: "Meu pedido?" });
    const sent = await waitFor(() =>
      app.sql.maybe<{ media_type: string; mimetype: string; user_id: number | null }>(
        "SELECT media_type, mimetype, user_id FROM messages WHERE ticket_id = $1 AND from_me",
        [r.ticketId],
      ),
    );
    expect(sent).toMatchObject({ media_type: "audio", user_id: null });
    const tts = ai.requests.filter((x) => x.path === "/cognitiveservices/v1").at(-1)!;
    expect(tts.headers["ocp-apim-subscription-key"]).toBe("azure-key-9876");
    expect(tts.headers["x-microsoft-outputformat"]).toBe("ogg-24khz-16bit-mono-opus");
    expect(tts.headers["content-type"]).toBe("application/ssml+xml");
    expect(tts.body.toString()).toContain('name="pt-BR-FranciscaNeural"');
    expect(tts.body.toString()).toContain("Seu pedido &amp; entrega &lt;amanhã&gt;.");
  });
});
