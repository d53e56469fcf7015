import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { processInbound } from "../inbound.js";
import { channels } from "../manager.js";
import { connectedSandbox, inbound, phoneOutbox, setSetting } from "../testing.js";
import { expireTicket } from "./expire-job.js";
import { EXPIRE_JOB } from "./expiry.js";
import { dueJobsSettled } from "../../../test/wait.js";

let app: TestApp;
let dataDir: string;
let seq = 0;
const newNumber = () => `5531${String(800000000 + ++seq * 7919).slice(0, 9)}`;
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-routing-"));
  app = await createTestApp({ dataDir });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, url: string, token: string | undefined, body?: unknown) => app.api(method, url, { token, body });
const ticketOf = async (token: string, id: number) => (await api("GET", `/api/tickets/${id}`, token)).json();
const CLOSED_ALL_WEEK = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => ({
  weekday: d,
  weekdayEn: d,
  startTime: "00:00",
  endTime: "00:00",
}));
const OPEN_ALL_WEEK = CLOSED_ALL_WEEK.map((d) => ({ ...d, startTime: "00:00", endTime: "23:59" }));

async function queue(companyId: number, name: string, o: { greeting?: string; outOfHours?: string; schedules?: unknown[] } = {}) {
  const id = await buildQueue(app.sql, companyId, { name });
  await app.sql.exec("UPDATE queues SET greeting_message = $2, out_of_hours_message = $3, schedules = $4::jsonb WHERE id = $1", [
    id,
    o.greeting ?? "",
    o.outOfHours ?? "",
    JSON.stringify(o.schedules ?? []),
  ]);
  return id;
}

describe("queue menu", () => {
  let t: Tenant;
  let vendas: number;
  let suporte: number;
  let transfer: number;
  beforeAll(async () => {
    t = await buildTenant(app);
    vendas = await queue(t.companyId, "Vendas", { greeting: "Vendas aqui, {{firstName}}!" });
    suporte = await queue(t.companyId, "Suporte");
    transfer = await queue(t.companyId, "Triagem");
  });

  it("greets with the numbered menu; a valid reply moves the ticket to the queue and sends its greeting", async () => {
    const wa = await connectedSandbox(app, t.admin.token, { queueIds: [vendas, suporte], greetingMessage: "Olá! Escolha uma opção:" });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, name: "Maria Souza", body: "oi" });
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "pending", queueId: null, chatbot: true });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toEqual(["Olá! Escolha uma opção:\n\n*1* - Vendas\n*2* - Suporte"]);
    const reply = await inbound(app, t.admin.token, wa, { number, body: " 1 " });
    expect(reply.ticketId).toBe(ticketId);
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "pending", queueId: vendas, chatbot: false });
    expect((await phoneOutbox(app, t.admin.token, wa, number)).at(-1)).toBe("Vendas aqui, Maria!");
    // routed: later messages are the agents' business, no more menus
    await inbound(app, t.admin.token, wa, { number, body: "3" });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toHaveLength(2);
  });

  it("an invalid reply resends the menu; after maxUseBotQueues menus the ticket goes to the transfer queue", async () => {
    const wa = await connectedSandbox(app, t.admin.token, {
      queueIds: [vendas, suporte],
      greetingMessage: "Menu",
      fields: { maxUseBotQueues: 2, transferQueueId: transfer },
    });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, body: "oi" });
    await inbound(app, t.admin.token, wa, { number, body: "quero falar com alguém" });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toHaveLength(2);
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ queueId: null, chatbot: true });
    await inbound(app, t.admin.token, wa, { number, body: "9" }); // out of range: a failed attempt too
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toHaveLength(2);
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "pending", queueId: transfer, chatbot: false });
    // the bot has stopped: a number now is a normal message
    await inbound(app, t.admin.token, wa, { number, body: "1" });
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ queueId: transfer });
  });

  it("without a transfer queue, exhausted attempts leave the ticket pending without a queue", async () => {
    const wa = await connectedSandbox(app, t.admin.token, { queueIds: [vendas, suporte], greetingMessage: "Menu", fields: { maxUseBotQueues: 1 } });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, body: "oi" });
    await inbound(app, t.admin.token, wa, { number, body: "??" });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toHaveLength(1);
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "pending", queueId: null, chatbot: false });
  });

  it("a reply after timeUseBotQueues minutes restarts the menu instead of choosing", async () => {
    const wa = await connectedSandbox(app, t.admin.token, { queueIds: [vendas, suporte], greetingMessage: "Menu", fields: { timeUseBotQueues: 10 } });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, body: "oi" });
    await app.sql.exec("UPDATE tickets SET bot_menu_at = now() - interval '11 minutes' WHERE id = $1", [ticketId]);
    await inbound(app, t.admin.token, wa, { number, body: "2" });
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ queueId: null, chatbot: true });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toHaveLength(2);
    await inbound(app, t.admin.token, wa, { number, body: "2" }); // within the time now
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ queueId: suporte, chatbot: false });
  });

  it("a ticket that picks the BOT queue keeps chatbot=true", async () => {
    const bot = await queue(t.companyId, "BOT");
    const wa = await connectedSandbox(app, t.admin.token, { queueIds: [vendas, bot], greetingMessage: "Menu" });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, body: "oi" });
    await inbound(app, t.admin.token, wa, { number, body: "2" });
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ queueId: bot, chatbot: true });
    await inbound(app, t.admin.token, wa, { number, body: "1" }); // the bot's conversation, not a menu choice
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ queueId: bot, chatbot: true });
  });

  it("one queue: the ticket is in it at once with the queue's greeting; groups get neither greeting nor menu", async () => {
    const single = await connectedSandbox(app, t.admin.token, { queueIds: [vendas] });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, single, { number, name: "João", body: "oi" });
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "pending", queueId: vendas, chatbot: false });
    expect(await phoneOutbox(app, t.admin.token, single, number)).toEqual(["Vendas aqui, João!"]);

    const multi = await connectedSandbox(app, t.admin.token, { queueIds: [vendas, suporte], greetingMessage: "Menu" });
    const group = `1203630${String(++seq).padStart(11, "0")}`;
    const r = await processInbound(
      app.ctx,
      { companyId: t.companyId, whatsappId: multi },
      { providerId: `G-${group}`, from: group, pushName: "Grupo", body: "oi pessoal", mediaType: "chat", isGroup: true },
    );
    expect(await ticketOf(t.admin.token, r.ticketId)).toMatchObject({ isGroup: true, chatbot: false, queueId: null });
    expect(await phoneOutbox(app, t.admin.token, multi, group)).toEqual([]);
  });
});

describe("opening hours", () => {
  it("scheduleType=company: out of hours the connection's message and a pending ticket without menu; in hours the menu", async () => {
    const t = await buildTenant(app);
    const a = await queue(t.companyId, "Comercial");
    const b = await queue(t.companyId, "Financeiro");
    const wa = await connectedSandbox(app, t.admin.token, {
      queueIds: [a, b],
      greetingMessage: "Menu",
      fields: { outOfHoursMessage: "Estamos fechados, {{firstName}}." },
    });
    await setSetting(app, t.companyId, "scheduleType", "company");
    await app.sql.exec("UPDATE companies SET schedules = $2::jsonb WHERE id = $1", [t.companyId, JSON.stringify(CLOSED_ALL_WEEK)]);
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, name: "Ana Lima", body: "oi" });
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "pending", queueId: null, chatbot: false });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toEqual(["Estamos fechados, Ana."]);
    await inbound(app, t.admin.token, wa, { number, body: "1" });
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ queueId: null });

    await app.sql.exec("UPDATE companies SET schedules = $2::jsonb WHERE id = $1", [t.companyId, JSON.stringify(OPEN_ALL_WEEK)]);
    const other = newNumber();
    await inbound(app, t.admin.token, wa, { number: other, body: "oi" });
    expect(await phoneOutbox(app, t.admin.token, wa, other)).toEqual(["Menu\n\n*1* - Comercial\n*2* - Financeiro"]);
  });

  it("scheduleType=queue: the queue's own hours decide between its greeting and its out-of-hours message", async () => {
    const t = await buildTenant(app);
    const closed = await queue(t.companyId, "Plantão", { greeting: "Plantão!", outOfHours: "O plantão está fechado." });
    const open = await queue(t.companyId, "Loja", { greeting: "Loja aberta!", outOfHours: "Loja fechada.", schedules: OPEN_ALL_WEEK });
    await app.sql.exec("UPDATE queues SET schedules = $2::jsonb WHERE id = $1", [closed, JSON.stringify(CLOSED_ALL_WEEK)]);
    await setSetting(app, t.companyId, "scheduleType", "queue");
    // a single closed queue: assigned, kept pending, its out-of-hours message
    const single = await connectedSandbox(app, t.admin.token, { queueIds: [closed] });
    const n1 = newNumber();
    const first = await inbound(app, t.admin.token, single, { number: n1, body: "oi" });
    expect(await ticketOf(t.admin.token, first.ticketId)).toMatchObject({ status: "pending", queueId: closed });
    expect(await phoneOutbox(app, t.admin.token, single, n1)).toEqual(["O plantão está fechado."]);
    // from the menu
    const multi = await connectedSandbox(app, t.admin.token, { queueIds: [closed, open], greetingMessage: "Menu" });
    const n2 = newNumber();
    await inbound(app, t.admin.token, multi, { number: n2, body: "oi" });
    await inbound(app, t.admin.token, multi, { number: n2, body: "1" });
    const n3 = newNumber();
    await inbound(app, t.admin.token, multi, { number: n3, body: "oi" });
    await inbound(app, t.admin.token, multi, { number: n3, body: "2" });
    expect((await phoneOutbox(app, t.admin.token, multi, n2)).at(-1)).toBe("O plantão está fechado.");
    expect((await phoneOutbox(app, t.admin.token, multi, n3)).at(-1)).toBe("Loja aberta!");
  });
});

describe("own connection numbers (ERR_CONTACT_IS_WHATSAPP)", () => {
  it("ignores a message from one of the company's connections and refuses tickets and messages to one", async () => {
    const t = await buildTenant(app);
    const waA = await connectedSandbox(app, t.admin.token, { name: "Loja A" });
    const waB = await connectedSandbox(app, t.admin.token, { name: "Loja B" });
    const numberB = (await api("GET", `/api/whatsapp/${waB}`, t.admin.token)).json().number as string;
    expect(numberB).toMatch(/^\d{10,}$/);

    const res = await api("POST", `/api/sandbox/${waA}/inbound`, t.admin.token, { number: numberB, name: "B", body: "oi" });
    expect(res.json()).toMatchObject({ messageId: 0, ticketId: 0 });
    expect(await app.sql.maybe("SELECT id FROM contacts WHERE company_id = $1 AND number = $2", [t.companyId, numberB])).toBeNull();

    const open = await api("POST", "/api/tickets", t.admin.token, { number: numberB, whatsappId: waA, message: "Olá" });
    expect(open.statusCode).toBe(400);
    expect(open.json().error).toBe("ERR_CONTACT_IS_WHATSAPP");
    expect(await app.sql.maybe("SELECT id FROM contacts WHERE company_id = $1 AND number = $2", [t.companyId, numberB])).toBeNull();

    // a contact stored before the number became a connection's
    const contact = await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Antigo', $2) RETURNING id", [
      t.companyId,
      numberB,
    ]);
    const ticket = await app.sql.one<{ id: number }>(
      "INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, user_id) VALUES ($1, $2, $3, 'open', $4) RETURNING id",
      [t.companyId, contact.id, waA, t.admin.id],
    );
    const send = await api("POST", `/api/messages/${ticket.id}`, t.admin.token, { body: "Olá", sign: false });
    expect(send.json().error).toBe("ERR_CONTACT_IS_WHATSAPP");
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1", [ticket.id])).n).toBe(0);
    expect(await phoneOutbox(app, t.admin.token, waA, numberB)).toEqual([]);
  });
});

describe("inactivity expiry (expiresTicket)", () => {
  it("every message moves the due time; the durable job closes the quiet ticket with expiresInactiveMessage", async () => {
    const t = await buildTenant(app);
    const wa = await connectedSandbox(app, t.admin.token, { fields: { expiresTicket: 1, expiresInactiveMessage: "Encerramos por inatividade, {{firstName}}." } });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, name: "Rita Alves", body: "oi" });
    const timer = () =>
      app.sql.one<{ expires_in: number; job_at: Date | null; expires_at: Date | null; jobs: number }>(
        `SELECT extract(epoch FROM expires_at - now())::float8 AS expires_in, expire_job_at AS job_at, expires_at,
                (SELECT count(*)::int FROM pgboss.job WHERE name = $2 AND (data->>'ticketId')::int = $1::int) AS jobs
           FROM tickets WHERE id = $1::int`,
        [ticketId, EXPIRE_JOB],
      );
    const first = await timer();
    expect(first.expires_in).toBeGreaterThan(50);
    expect(first.expires_in).toBeLessThanOrEqual(60);
    expect(first.jobs).toBe(1);
    expect(first.job_at?.getTime()).toBe(first.expires_at?.getTime());

    await api("PUT", `/api/tickets/${ticketId}`, t.admin.token, { action: "accept" });
    await new Promise((r) => setTimeout(r, 50));
    expect((await api("POST", `/api/messages/${ticketId}`, t.admin.token, { body: "Como posso ajudar?", sign: false })).statusCode).toBe(200);
    const second = await timer();
    expect(second.expires_at!.getTime()).toBeGreaterThan(first.expires_at!.getTime());
    expect(second.jobs).toBe(1); // the queued job will find the moved time

    // the first job waking up early: nothing closes, the next job waits for the new due time
    await expireTicket(app.ctx, { companyId: t.companyId, ticketId });
    const third = await timer();
    expect(third.jobs).toBe(2);
    expect(third.job_at?.getTime()).toBe(second.expires_at!.getTime());
    expect((await ticketOf(t.admin.token, ticketId)).status).toBe("open");

    // a fake clock: the due time has passed; the job (through the worker) closes the ticket
    await app.sql.exec("UPDATE tickets SET expires_at = now() - interval '1 second' WHERE id = $1", [ticketId]);
    await app.ctx.jobs.send(EXPIRE_JOB, { companyId: t.companyId, ticketId });
    await dueJobsSettled(app.sql, EXPIRE_JOB, { ticketId }); // the due job has run to its end
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "closed" });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toEqual(["Como posso ajudar?", "Encerramos por inatividade, Rita."]);
    expect(await app.sql.one("SELECT expires_at, expire_job_at FROM tickets WHERE id = $1", [ticketId])).toEqual({ expires_at: null, expire_job_at: null });

    // a late job of a closed ticket changes nothing; the next message opens a new ticket
    await expireTicket(app.ctx, { companyId: t.companyId, ticketId });
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toHaveLength(2);
    const again = await inbound(app, t.admin.token, wa, { number, body: "voltei" });
    expect(again.ticketId).not.toBe(ticketId);
  });

  it("a ticket that fell due while its connection is not up yet waits for it, so the farewell is sent (bounded)", async () => {
    const t = await buildTenant(app);
    const wa = await connectedSandbox(app, t.admin.token, { fields: { expiresTicket: 1, expiresInactiveMessage: "Até mais, {{firstName}}." } });
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, name: "Lia Souza", body: "oi" });
    const jobs = async () =>
      (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $2 AND (data->>'ticketId')::int = $1::int", [ticketId, EXPIRE_JOB])).n;
    const jobsBefore = await jobs();
    // as right after a restart: due while down, and the session not connected again yet
    await app.sql.exec("UPDATE tickets SET expires_at = now() - interval '5 seconds' WHERE id = $1", [ticketId]);
    await app.sql.exec("UPDATE whatsapps SET status = 'OPENING' WHERE id = $1", [wa]);
    await expireTicket(app.ctx, { companyId: t.companyId, ticketId });
    expect((await ticketOf(t.admin.token, ticketId)).status).toBe("pending");
    expect(await jobs()).toBe(jobsBefore + 1);
    const retry = await app.sql.one<{ later: boolean }>("SELECT expire_job_at > now() AS later FROM tickets WHERE id = $1", [ticketId]);
    expect(retry.later).toBe(true);

    await app.sql.exec("UPDATE whatsapps SET status = 'CONNECTED' WHERE id = $1", [wa]);
    await expireTicket(app.ctx, { companyId: t.companyId, ticketId });
    expect((await ticketOf(t.admin.token, ticketId)).status).toBe("closed");
    expect(await phoneOutbox(app, t.admin.token, wa, number)).toEqual(["Até mais, Lia."]);

    // past the bound the ticket closes without waiting any longer
    const late = await inbound(app, t.admin.token, wa, { number, body: "de novo" });
    await app.sql.exec("UPDATE tickets SET expires_at = now() - interval '11 minutes' WHERE id = $1", [late.ticketId]);
    await app.sql.exec("UPDATE whatsapps SET status = 'OPENING' WHERE id = $1", [wa]);
    try {
      await expireTicket(app.ctx, { companyId: t.companyId, ticketId: late.ticketId });
      expect((await ticketOf(t.admin.token, late.ticketId)).status).toBe("closed");
    } finally {
      await app.sql.exec("UPDATE whatsapps SET status = 'CONNECTED' WHERE id = $1", [wa]);
    }
  });

  it("a connection without expiresTicket schedules nothing", async () => {
    const t = await buildTenant(app);
    const wa = await connectedSandbox(app, t.admin.token);
    const { ticketId } = await inbound(app, t.admin.token, wa, { number: newNumber() });
    expect(await app.sql.one("SELECT expires_at, expire_job_at FROM tickets WHERE id = $1", [ticketId])).toEqual({ expires_at: null, expire_job_at: null });
  });
});

describe("completion and rating", () => {
  let t: Tenant;
  let wa: number;
  beforeAll(async () => {
    t = await buildTenant(app);
    wa = await connectedSandbox(app, t.admin.token, {
      complationMessage: "Atendimento {{protocol}} encerrado.",
      fields: { ratingMessage: "Avalie nosso atendimento de 1 a 5." },
    });
  });

  async function closedTicket(number: string): Promise<number> {
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, body: "preciso de ajuda" });
    await api("PUT", `/api/tickets/${ticketId}`, t.admin.token, { action: "accept" });
    const res = await api("PUT", `/api/tickets/${ticketId}`, t.admin.token, { action: "finish" });
    expect(res.statusCode).toBe(200);
    return ticketId;
  }

  it("without userRating only the completion message, once", async () => {
    await setSetting(app, t.companyId, "userRating", "disabled");
    const number = newNumber();
    const ticketId = await closedTicket(number);
    const out = await phoneOutbox(app, t.admin.token, wa, number);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^Atendimento \d+ encerrado\.$/);
    expect((await app.sql.one<{ rating_until: Date | null }>("SELECT rating_until FROM tickets WHERE id = $1", [ticketId])).rating_until).toBeNull();
  });

  it("with userRating: completion then rating; a 1-5 reply is stored and opens no ticket", async () => {
    await setSetting(app, t.companyId, "userRating", "enabled");
    const number = newNumber();
    const ticketId = await closedTicket(number);
    const out = await phoneOutbox(app, t.admin.token, wa, number);
    expect(out).toEqual([expect.stringMatching(/^Atendimento \d+ encerrado\.$/), "Avalie nosso atendimento de 1 a 5."]);
    const reply = await inbound(app, t.admin.token, wa, { number, body: " 5 " });
    expect(reply.ticketId).toBe(ticketId);
    expect(await app.sql.many("SELECT company_id, user_id, rate FROM ticket_ratings WHERE ticket_id = $1", [ticketId])).toEqual([
      { company_id: t.companyId, user_id: t.admin.id, rate: 5 },
    ]);
    expect(await ticketOf(t.admin.token, ticketId)).toMatchObject({ status: "closed", unreadMessages: 0 });
    const tickets = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM tickets WHERE contact_id = $1", [reply.contactId]);
    expect(tickets.n).toBe(1);
    // answered: the next message is a new conversation
    const next = await inbound(app, t.admin.token, wa, { number, body: "4" });
    expect(next.ticketId).not.toBe(ticketId);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_ratings WHERE ticket_id = ANY($1)", [[ticketId, next.ticketId]])).n).toBe(1);
  });

  it("any other reply is a normal message (new ticket) and ends the wait; an expired wait takes no rating", async () => {
    await setSetting(app, t.companyId, "userRating", "enabled");
    const number = newNumber();
    const ticketId = await closedTicket(number);
    const other = await inbound(app, t.admin.token, wa, { number, body: "obrigado!" });
    expect(other.ticketId).not.toBe(ticketId);
    expect(await ticketOf(t.admin.token, other.ticketId)).toMatchObject({ status: "pending", unreadMessages: 1 });

    const n2 = newNumber();
    const t2 = await closedTicket(n2);
    await app.sql.exec("UPDATE tickets SET rating_until = now() - interval '1 minute' WHERE id = $1", [t2]);
    const late = await inbound(app, t.admin.token, wa, { number: n2, body: "3" });
    expect(late.ticketId).not.toBe(t2);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_ratings WHERE ticket_id = ANY($1)", [[ticketId, t2]])).n).toBe(0);
  });
});

describe("outgoing durability", () => {
  it("stores the message before the driver sends it; a driver that throws leaves a failed row and ERR_SENDING_WAPP_MSG", async () => {
    const t = await buildTenant(app);
    const wa = await connectedSandbox(app, t.admin.token);
    const number = newNumber();
    const { ticketId } = await inbound(app, t.admin.token, wa, { number });
    await api("PUT", `/api/tickets/${ticketId}`, t.admin.token, { action: "accept" });

    const driver = channels(app.ctx).get(wa)!;
    const original = driver.sendText.bind(driver);
    const seen: unknown[] = [];
    driver.sendText = async (to, body, opts) => {
      seen.push(await app.sql.maybe("SELECT send_status, ack, provider_id FROM messages WHERE ticket_id = $1 AND body = $2", [ticketId, body]));
      if (body === "vai falhar") throw new Error("socket closed");
      return original(to, body, opts);
    };
    try {
      const fail = await api("POST", `/api/messages/${ticketId}`, t.admin.token, { body: "vai falhar", sign: false });
      expect(fail.statusCode).toBe(502);
      expect(fail.json().error).toBe("ERR_SENDING_WAPP_MSG");
      expect(seen[0]).toEqual({ send_status: "pending", ack: 0, provider_id: null });
      const failed = await app.sql.one<{ send_status: string; ack: number; send_error: string; provider_id: string | null }>(
        "SELECT send_status, ack, send_error, provider_id FROM messages WHERE ticket_id = $1 AND body = 'vai falhar'",
        [ticketId],
      );
      expect(failed).toMatchObject({ send_status: "failed", ack: 0, provider_id: null });
      expect(failed.send_error).toMatch(/^ERR_SENDING_WAPP_MSG/);
      // the web sees the failed row with its error (and a sent one without)
      const failedShown = (await api("GET", `/api/messages/${ticketId}`, t.admin.token)).json().messages.find((m: { body: string }) => m.body === "vai falhar");
      expect(failedShown).toMatchObject({ fromMe: true, ack: 0, sendError: "Não foi possível enviar a mensagem" });
      expect(await phoneOutbox(app, t.admin.token, wa, number)).toEqual([]);

      const ok = await api("POST", `/api/messages/${ticketId}`, t.admin.token, { body: "vai chegar", sign: false });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().messages[0]).toMatchObject({ body: "vai chegar", ack: 1, sendError: null });
      expect(seen[1]).toEqual({ send_status: "pending", ack: 0, provider_id: null });
      const sent = await app.sql.one<{ send_status: string; provider_id: string | null }>(
        "SELECT send_status, provider_id FROM messages WHERE ticket_id = $1 AND body = 'vai chegar'",
        [ticketId],
      );
      expect(sent.send_status).toBe("sent");
      const phone = await app.sql.one<{ provider_id: string }>("SELECT provider_id FROM sandbox_messages WHERE whatsapp_id = $1 AND body = 'vai chegar'", [wa]);
      expect(sent.provider_id).toBe(phone.provider_id);
      expect(await phoneOutbox(app, t.admin.token, wa, number)).toEqual(["vai chegar"]);
    } finally {
      driver.sendText = original;
    }
  });
});
