import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, phoneOutbox } from "../../channels/testing.js";
import { startFakeBots, type FakeBots } from "../../../test/fake-bots/server.js";
import { TURN_JOB } from "./runtime.js";
import { dueJobsSettled, waitFor } from "../../../test/wait.js";

/**
 * The runtime against fakes on loopback: a sandbox connection whose one queue (or the connection
 * itself) has an integration; the customer's messages go through inbound routing, the bot's answers
 * come back on the sandbox phone; hand-over leaves the ticket pending with use_integration false.
 */
let app: TestApp;
let fake: FakeBots;
let unlisted: FakeBots;
let t: Awaited<ReturnType<typeof buildTenant>>;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeBots();
  // a second server on loopback that OUTBOUND_ALLOWED_HOSTS does not name: a private address
  unlisted = await startFakeBots();
  process.env.OUTBOUND_ALLOWED_HOSTS = fake.host;
  app = await createTestApp({ dialogflowApiUrl: `${fake.url}/dialogflow` });
  t = await buildTenant(app);
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOWED_HOSTS;
  await app.close();
  await Promise.all([fake.close(), unlisted.close()]);
});

async function integration(fields: Record<string, unknown>): Promise<number> {
  const row = await app.sql.one<{ id: number }>(
    `INSERT INTO queue_integrations (company_id, type, name, project_name, url_n8n, typebot_slug, typebot_expires, typebot_delay_message,
       typebot_keyword_finish, typebot_keyword_restart, typebot_unknown_message, typebot_restart_message, language, json_content_sealed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
    [
      t.companyId,
      fields.type,
      `Bot ${++seq}`,
      fields.projectName ?? "",
      fields.url ?? "",
      fields.slug ?? "",
      fields.expires ?? 1,
      fields.delay ?? 1000,
      fields.finish ?? "",
      fields.restart ?? "",
      fields.unknown ?? "",
      fields.restartMessage ?? "",
      fields.language ?? "pt-BR",
      fields.sealed ?? "",
    ],
  );
  return row.id;
}

/** A connection with one queue using the integration (or, with onConnection, the connection using it and no queue). */
async function line(integrationId: number, o: { onConnection?: boolean } = {}) {
  if (o.onConnection) {
    const whatsappId = await connectedSandbox(app, t.admin.token, { name: `Conexão ${++seq}` });
    await app.sql.exec("UPDATE whatsapps SET integration_id = $2 WHERE id = $1", [whatsappId, integrationId]);
    return whatsappId;
  }
  const queueId = await buildQueue(app.sql, t.companyId);
  await app.sql.exec("UPDATE queues SET integration_id = $2 WHERE id = $1", [queueId, integrationId]);
  return connectedSandbox(app, t.admin.token, { name: `Conexão ${++seq}`, queueIds: [queueId] });
}

const number = () => `55119${String(70000000 + ++seq).padStart(8, "0")}`;

const outbox = (whatsappId: number, phone: string) => phoneOutbox(app, t.admin.token, whatsappId, phone);
const waitOutbox = (whatsappId: number, phone: string, count: number) =>
  waitFor(
    async () => {
      const got = await outbox(whatsappId, phone);
      return got.length >= count ? got : null;
    },
    15_000,
    `${count} messages on the phone`,
  );
const ticketState = (id: number) =>
  app.sql.one<{ status: string; use_integration: boolean; integration_id: number | null; user_id: number | null }>(
    "SELECT status, use_integration, integration_id, user_id FROM tickets WHERE id = $1",
    [id],
  );
/**
 * Every bot turn queued for the ticket has ended: inbound answers after queueing the message's turn
 * (if any), so nothing more can come from the bot once this resolves.
 */
const turnsEnded = (ticketId: number) => dueJobsSettled(app.sql, TURN_JOB, { ticketId });
const handedOver = (id: number) => waitFor(async () => !(await ticketState(id)).use_integration, 15_000, "hand-over");

describe("queue integrations at work: Typebot", () => {
  it("drives a flow over several messages with the delay between bubbles, and hands over at the flow's end", async () => {
    const it = await integration({ type: "typebot", url: `${fake.url}/typebot`, slug: "suporte", delay: 400, unknown: "Não entendi, responda sim ou não." });
    const w = await line(it);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "Oi" });
    expect(await waitOutbox(w, phone, 2)).toEqual(["Olá! Eu sou o robô.", "Qual é o seu nome?"]);
    expect(await ticketState(first.ticketId)).toMatchObject({ status: "pending", use_integration: true, integration_id: it, user_id: null });
    const start = fake.requests.find((r) => r.path === "/typebot/api/v1/typebots/suporte/startChat")!;
    expect(JSON.parse(start.body).prefilledVariables).toMatchObject({ number: phone, pushName: "Cliente" });

    await inbound(app, t.admin.token, w, { number: phone, body: "Maria" });
    expect((await waitOutbox(w, phone, 4)).slice(2)).toEqual(["Prazer, Maria!", "Quer falar com um atendente? (sim/não)"]);
    const sent = await app.sql.many<{ at: Date }>("SELECT created_at AS at FROM messages WHERE ticket_id = $1 AND from_me ORDER BY id", [first.ticketId]);
    expect(sent[1]!.at.getTime() - sent[0]!.at.getTime()).toBeGreaterThanOrEqual(350);
    expect(sent[3]!.at.getTime() - sent[2]!.at.getTime()).toBeGreaterThanOrEqual(350);
    const stored = await app.sql.one<{ session_id: string }>("SELECT session_id FROM queue_integration_sessions WHERE ticket_id = $1", [first.ticketId]);
    expect(fake.requests.some((r) => r.path === `/typebot/api/v1/sessions/${stored.session_id}/continueChat` && JSON.parse(r.body).message.text === "Maria")).toBe(true);

    // an answer the input does not take: the unknown-message text
    await inbound(app, t.admin.token, w, { number: phone, body: "talvez" });
    expect((await waitOutbox(w, phone, 5))[4]).toBe("Não entendi, responda sim ou não.");

    await inbound(app, t.admin.token, w, { number: phone, body: "sim" });
    expect((await waitOutbox(w, phone, 6))[5]).toBe("Transferindo para um atendente...");
    await handedOver(first.ticketId);
    expect(await ticketState(first.ticketId)).toMatchObject({ status: "pending", use_integration: false, integration_id: it, user_id: null });
    expect(await app.sql.maybe("SELECT 1 FROM queue_integration_sessions WHERE ticket_id = $1", [first.ticketId])).toBeNull();

    // after the hand-over the bot stays out
    const before = fake.requests.length;
    await inbound(app, t.admin.token, w, { number: phone, body: "olá?" });
    await turnsEnded(first.ticketId);
    expect(fake.requests.length).toBe(before);
    expect(await outbox(w, phone)).toHaveLength(6);
  });

  it("the restart keyword starts over with the restart message; the finish keyword hands over", async () => {
    const it = await integration({ type: "typebot", url: `${fake.url}/typebot`, slug: "suporte", delay: 0, restart: "#reiniciar", restartMessage: "Vamos recomeçar.", finish: "#sair" });
    const w = await line(it);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "Oi" });
    await waitOutbox(w, phone, 2);
    await inbound(app, t.admin.token, w, { number: phone, body: "#REINICIAR" });
    expect((await waitOutbox(w, phone, 5)).slice(2)).toEqual(["Vamos recomeçar.", "Olá! Eu sou o robô.", "Qual é o seu nome?"]);
    await inbound(app, t.admin.token, w, { number: phone, body: "#sair" });
    await handedOver(first.ticketId);
    expect(await ticketState(first.ticketId)).toMatchObject({ status: "pending", user_id: null });
    expect(await outbox(w, phone)).toHaveLength(5);
  });

  it("a session idle for longer than typebotExpires minutes ends: the next message starts a new one", async () => {
    const it = await integration({ type: "typebot", url: `${fake.url}/typebot`, slug: "suporte", delay: 0, expires: 1 });
    const w = await line(it);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "Oi" });
    await waitOutbox(w, phone, 2);
    const old = await app.sql.one<{ session_id: string }>("SELECT session_id FROM queue_integration_sessions WHERE ticket_id = $1", [first.ticketId]);
    await app.sql.exec("UPDATE queue_integration_sessions SET last_at = now() - interval '2 minutes' WHERE ticket_id = $1", [first.ticketId]);
    await inbound(app, t.admin.token, w, { number: phone, body: "Voltei" });
    expect((await waitOutbox(w, phone, 4)).slice(2)).toEqual(["Olá! Eu sou o robô.", "Qual é o seu nome?"]);
    const renewed = await app.sql.one<{ session_id: string }>("SELECT session_id FROM queue_integration_sessions WHERE ticket_id = $1", [first.ticketId]);
    expect(renewed.session_id).not.toBe(old.session_id);
  });

  it("an agent taking the ticket stops the bot", async () => {
    const it = await integration({ type: "typebot", url: `${fake.url}/typebot`, slug: "suporte", delay: 0 });
    const w = await line(it);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "Oi" });
    await waitOutbox(w, phone, 2);
    const accept = await app.api("PUT", `/api/tickets/${first.ticketId}`, { token: t.admin.token, body: { status: "open", userId: t.admin.id } });
    expect(accept.statusCode, accept.body).toBe(200);
    const before = fake.requests.length;
    await inbound(app, t.admin.token, w, { number: phone, body: "Maria" });
    await turnsEnded(first.ticketId);
    expect(fake.requests.length).toBe(before);
    expect(await outbox(w, phone)).toHaveLength(2);
  });
});

describe("queue integrations at work: n8n, webhook, Dialogflow", () => {
  it("webhook: POSTs ticket, contact and text as JSON and sends back the answer's texts; transfer: true hands over", async () => {
    const it = await integration({ type: "webhook", url: `${fake.url}/webhook` });
    const w = await line(it, { onConnection: true });
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, name: "Joana", body: "Quero um orçamento" });
    expect(await waitOutbox(w, phone, 2)).toEqual(["Eco: Quero um orçamento", "Contato: Joana"]);
    const call = JSON.parse(fake.requests.filter((r) => r.path === "/webhook").at(-1)!.body);
    expect(call).toMatchObject({ event: "message", text: "Quero um orçamento", ticket: { id: first.ticketId, status: "pending" }, contact: { name: "Joana", number: phone } });
    await inbound(app, t.admin.token, w, { number: phone, body: "falar com humano" });
    expect((await waitOutbox(w, phone, 3))[2]).toBe("Vou te transferir.");
    await handedOver(first.ticketId);
  });

  it("a connection's bot with several queues answers first; the queue menu starts when it hands over; a queue's own bot takes it then", async () => {
    const it = await integration({ type: "webhook", url: `${fake.url}/webhook` });
    const queueBot = await integration({ type: "n8n", url: `${fake.url}/n8n` });
    const vendas = await buildQueue(app.sql, t.companyId, { name: `Vendas ${++seq}` });
    const suporte = await buildQueue(app.sql, t.companyId, { name: `Suporte ${++seq}` });
    await app.sql.exec("UPDATE queues SET integration_id = $2 WHERE id = $1", [suporte, queueBot]);
    const w = await connectedSandbox(app, t.admin.token, { name: `Conexão ${++seq}`, queueIds: [vendas, suporte], greetingMessage: "Escolha um setor:" });
    await app.sql.exec("UPDATE whatsapps SET integration_id = $2 WHERE id = $1", [w, it]);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, name: "Rui", body: "Quero um orçamento" });
    // only the bot's answers: no menu beside them
    expect(await waitOutbox(w, phone, 2)).toEqual(["Eco: Quero um orçamento", "Contato: Rui"]);
    await turnsEnded(first.ticketId);
    expect(await outbox(w, phone)).toHaveLength(2);
    await inbound(app, t.admin.token, w, { number: phone, body: "falar com humano" });
    await handedOver(first.ticketId);
    const sent = await waitOutbox(w, phone, 4);
    expect(sent[2]).toBe("Vou te transferir.");
    expect(sent[3]).toMatch(/^Escolha um setor:\n\n\*1\* - Vendas \d+\n\*2\* - Suporte \d+$/);
    // the customer picks the queue with a bot of its own: the ticket enters it and that bot answers
    await inbound(app, t.admin.token, w, { number: phone, body: "2" });
    expect((await waitOutbox(w, phone, 5))[4]).toBe("n8n: 2");
    expect(await app.sql.one("SELECT queue_id, use_integration, integration_id FROM tickets WHERE id = $1", [first.ticketId])).toEqual({
      queue_id: suporte,
      use_integration: true,
      integration_id: queueBot,
    });
    // once that bot hands over too, nobody takes the ticket again: it waits for Suporte's agents
    fake.failNext.status = 503;
    fake.failNext.times = 3;
    await inbound(app, t.admin.token, w, { number: phone, body: "ainda aí?" });
    await handedOver(first.ticketId);
    fake.failNext.times = 0;
    await inbound(app, t.admin.token, w, { number: phone, body: "olá" });
    await turnsEnded(first.ticketId);
    expect(await outbox(w, phone)).toHaveLength(5);
    expect(await ticketState(first.ticketId)).toMatchObject({ status: "pending", use_integration: false, integration_id: queueBot, user_id: null });
  });

  it("a bot's turn sends at most 20 messages", async () => {
    const it = await integration({ type: "webhook", url: `${fake.url}/webhook` });
    const w = await line(it);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "enxurrada" });
    const got = await waitOutbox(w, phone, 20);
    await turnsEnded(first.ticketId);
    expect(await outbox(w, phone)).toEqual(got.slice(0, 20));
    expect(got.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => `Mensagem ${i + 1}`));
    expect((await ticketState(first.ticketId)).use_integration).toBe(true);
  });

  it("n8n: the first item's output is the answer; a 5xx is retried, and failing for good hands over", async () => {
    const it = await integration({ type: "n8n", url: `${fake.url}/n8n` });
    const w = await line(it);
    const phone = number();
    fake.failNext.status = 503;
    fake.failNext.times = 2;
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "Bom dia" });
    expect(await waitOutbox(w, phone, 1)).toEqual(["n8n: Bom dia"]);
    fake.failNext.times = 10;
    await inbound(app, t.admin.token, w, { number: phone, body: "de novo" });
    await handedOver(first.ticketId);
    expect(fake.failNext.times).toBe(7); // three attempts, no more
    fake.failNext.times = 0;
    expect(await ticketState(first.ticketId)).toMatchObject({ status: "pending", user_id: null });
  });

  it("Dialogflow: detectIntent with a token from the service account; the fulfillment text comes back; endInteraction hands over", async () => {
    const res = await app.api("POST", "/api/queueIntegration", {
      token: await app.login((await buildUser(app.sql, t.companyId, { profile: "admin", super: true })).email),
      body: { type: "dialogflow", name: "Agente", projectName: "atende-bot", jsonContent: fake.serviceAccountJson, language: "es" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const w = await line(res.json().id);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "Hola" });
    expect(await waitOutbox(w, phone, 1)).toEqual(["Resposta (es): Hola"]);
    const ticket = await app.sql.one<{ uuid: string }>("SELECT uuid::text FROM tickets WHERE id = $1", [first.ticketId]);
    expect(fake.requests.some((r) => r.path === `/dialogflow/v2/projects/atende-bot/agent/sessions/atende-${ticket.uuid}:detectIntent`)).toBe(true);
    await inbound(app, t.admin.token, w, { number: phone, body: "quero um atendente" });
    expect((await waitOutbox(w, phone, 2))[1]).toBe("Chamando um atendente.");
    await handedOver(first.ticketId);
  });

  it("an address on a private network the allow-list does not name is refused, and the ticket goes to a human", async () => {
    const it = await integration({ type: "webhook", url: `${unlisted.url}/webhook` });
    const w = await line(it);
    const phone = number();
    const first = await inbound(app, t.admin.token, w, { number: phone, body: "Oi" });
    await handedOver(first.ticketId);
    expect(unlisted.requests).toHaveLength(0);
    expect(await outbox(w, phone)).toEqual([]);
    expect(await ticketState(first.ticketId)).toMatchObject({ status: "pending", use_integration: false, integration_id: it });
  });
});
