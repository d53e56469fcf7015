import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectedSandbox, inbound, setSetting } from "../src/channels/testing.js";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "./helper.js";
import { campaignForm, postCampaign, seedCampaignWorld } from "../src/domains/campaigns/test-fixtures.js";
import { createBody, createWithFile, seedEmailWorld } from "../src/domains/email-campaigns/test-fixtures.js";

/**
 * Who receives each real-time event the server emits (grep `realtime.emit`), with real socket.io
 * clients of users of every profile, of different queues, with and without allTicket, and an admin
 * of another company. Ticket and message events must reach exactly the users the visibility rule
 * (canSeeTicket, widest view) lets open the ticket; user events only those who may list users and
 * the user themself.
 */

let app: TestApp;
let dataDir: string;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let queueA: number;
let queueB: number;
let botQueue: number;
let contactId: number;
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};
const clients: { name: string; socket: Socket; events: { channel: string; payload: Record<string, unknown> }[] }[] = [];
let seq = 0;

/** Every user of company T, for company-wide events. */
const WHOLE_COMPANY = ["admin", "allTicket", "botAndB", "supervisor", "supervisorB", "user", "userA", "userB"];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-audience-"));
  app = await createTestApp({ dataDir });
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
  queueB = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
  botQueue = await buildQueue(app.sql, t.companyId, { name: "BOT" });
  const built = {
    userA: await buildUser(app.sql, t.companyId, { queueIds: [queueA] }),
    userB: await buildUser(app.sql, t.companyId, { queueIds: [queueB] }),
    allTicket: await buildUser(app.sql, t.companyId, { allTicket: "enable" }),
    supervisorB: await buildUser(app.sql, t.companyId, { profile: "supervisor", queueIds: [queueB] }),
    botAndB: await buildUser(app.sql, t.companyId, { queueIds: [botQueue, queueB] }),
  };
  Object.assign(ids, { admin: t.admin.id, supervisor: t.supervisor.id, user: t.user.id, foreign: other.admin.id });
  Object.assign(tokens, { admin: t.admin.token, supervisor: t.supervisor.token, user: t.user.token, foreign: other.admin.token });
  for (const [name, u] of Object.entries(built)) {
    ids[name] = u.id;
    tokens[name] = await app.login(u.email);
  }
  for (const [name, token] of Object.entries(tokens)) clients.push({ name, ...(await socketFor(token)) });
  contactId = (await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Cliente', '5511955550000') RETURNING id", [t.companyId])).id;
});
afterAll(async () => {
  for (const c of clients) c.socket.close();
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  for (const c of clients) c.events.length = 0;
});

async function socketFor(token: string) {
  const socket = connect(base, { auth: { token }, transports: ["websocket"] });
  const events: { channel: string; payload: Record<string, unknown> }[] = [];
  socket.onAny((channel: string, payload: Record<string, unknown>) => events.push({ channel, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return { socket, events };
}

const api = async (method: string, url: string, token: string, body?: unknown) => {
  const res = await app.api(method, url, { token, body });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};

/**
 * The names of the users whose sockets received `event` on company T's channel `name`, waiting until
 * at least `expected` have it and a little longer for any extra receiver.
 */
async function receivers(name: string, expected: string[], match: (p: Record<string, unknown>) => boolean = () => true): Promise<string[]> {
  const channel = `company-${t.companyId}-${name}`;
  const got = () => clients.filter((c) => c.events.some((e) => e.channel === channel && match(e.payload))).map((c) => c.name);
  const until = Date.now() + 8000;
  while (expected.some((n) => !got().includes(n)) && Date.now() < until) await new Promise((r) => setTimeout(r, 30));
  await new Promise((r) => setTimeout(r, 200));
  return got().sort();
}

async function ticket(o: { status: string; queueId: number | null; userId?: number | null; transferQueueId?: number | null }) {
  const c = await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'T', $2) RETURNING id", [
    t.companyId,
    `55119${String(10000000 + ++seq)}`,
  ]);
  const row = await app.sql.one<{ id: number }>(
    "INSERT INTO tickets (company_id, contact_id, status, queue_id, user_id, transfer_queue_id, unread_messages) VALUES ($1, $2, $3, $4, $5, $6, 1) RETURNING id",
    [t.companyId, c.id, o.status, o.queueId, o.userId ?? null, o.transferQueueId ?? null],
  );
  return row.id;
}

/** updateUnread: the ticket's audience as it stands (the admin reads it). */
async function unreadAudience(ticketId: number, expected: string[]) {
  await api("POST", `/api/tickets/${ticketId}/read`, tokens.admin!);
  return receivers("ticket", expected, (p) => p.action === "updateUnread" && p.ticketId === ticketId);
}

describe("ticket events reach exactly those who may open the ticket", () => {
  it("a pending ticket in queue A: admins, supervisors (show all), queue A members", async () => {
    const id = await ticket({ status: "pending", queueId: queueA });
    expect(await unreadAudience(id, ["admin", "supervisor", "supervisorB", "userA"])).toEqual(["admin", "supervisor", "supervisorB", "userA"]);
  });

  it("an open ticket in queue A assigned to a user outside it: also the assignee", async () => {
    const id = await ticket({ status: "open", queueId: queueA, userId: ids.user });
    expect(await unreadAudience(id, ["admin", "supervisor", "supervisorB", "user", "userA"])).toEqual([
      "admin",
      "supervisor",
      "supervisorB",
      "user",
      "userA",
    ]);
  });

  it("a pending ticket without a queue: admins, supervisors and allTicket users, not every user of the company", async () => {
    const id = await ticket({ status: "pending", queueId: null });
    expect(await unreadAudience(id, ["admin", "allTicket", "supervisor", "supervisorB"])).toEqual(["admin", "allTicket", "supervisor", "supervisorB"]);
    // the same user is refused over HTTP
    expect((await app.api("GET", `/api/tickets/${id}`, { token: tokens.userA })).statusCode).toBe(403);
  });

  it("an open ticket without a queue: admins, supervisors and its assignee (allTicket covers pending only)", async () => {
    const id = await ticket({ status: "open", queueId: null, userId: ids.userB });
    expect(await unreadAudience(id, ["admin", "supervisor", "supervisorB", "userB"])).toEqual(["admin", "supervisor", "supervisorB", "userB"]);
  });

  it("restrictSystemQueuesVisibility: a BOT ticket with transfer queue B goes to admins and the B members the rule lets through", async () => {
    const id = await ticket({ status: "pending", queueId: botQueue, transferQueueId: queueB });
    expect(await unreadAudience(id, ["admin", "botAndB", "supervisor", "supervisorB"])).toEqual(["admin", "botAndB", "supervisor", "supervisorB"]);
    await setSetting(app, t.companyId, "restrictSystemQueuesVisibility", "enabled");
    try {
      for (const c of clients) c.events.length = 0;
      expect(await unreadAudience(id, ["admin", "botAndB", "supervisorB"])).toEqual(["admin", "botAndB", "supervisorB"]);
      expect((await app.api("GET", `/api/tickets/${id}`, { token: tokens.supervisor })).statusCode).toBe(403);
      expect((await app.api("GET", `/api/tickets/${id}`, { token: tokens.userB })).statusCode).toBe(403);
    } finally {
      await setSetting(app, t.companyId, "restrictSystemQueuesVisibility", "disabled");
    }
  });

  it("the rooms follow a user's change: allTicket switched on by an admin takes effect on the open socket", async () => {
    await api("PUT", `/api/users/${ids.user}`, tokens.admin!, { allTicket: "enable" });
    try {
      const id = await ticket({ status: "pending", queueId: null });
      expect(await unreadAudience(id, ["admin", "allTicket", "supervisor", "supervisorB", "user"])).toEqual([
        "admin",
        "allTicket",
        "supervisor",
        "supervisorB",
        "user",
      ]);
    } finally {
      await api("PUT", `/api/users/${ids.user}`, tokens.admin!, { allTicket: "disable" });
    }
  });

  it("a transfer from queue A to queue B: the update reaches who saw it before and who sees it now", async () => {
    const id = await ticket({ status: "pending", queueId: queueA });
    await api("PUT", `/api/tickets/${id}`, tokens.admin!, { action: "transfer", queueId: queueB });
    const got = await receivers("ticket", ["admin", "userA", "userB"], (p) => p.action === "update" && (p.ticket as { id: number }).id === id);
    expect(got).toEqual(["admin", "botAndB", "supervisor", "supervisorB", "userA", "userB"]);
  });

  it("a delete reaches the ticket's audience", async () => {
    const id = await ticket({ status: "pending", queueId: queueB });
    await api("DELETE", `/api/tickets/${id}`, tokens.admin!);
    const got = await receivers("ticket", ["admin", "userB"], (p) => p.action === "delete" && p.ticketId === id);
    expect(got).toEqual(["admin", "botAndB", "supervisor", "supervisorB", "userB"]);
  });

  it("appMessage: an inbound message on a queue-A connection reaches the ticket's audience", async () => {
    const wa = await connectedSandbox(app, tokens.admin!, { queueIds: [queueA] });
    for (const c of clients) c.events.length = 0;
    const { ticketId } = await inbound(app, tokens.admin!, wa, { number: "5531988887777", body: "oi" });
    const got = await receivers("appMessage", ["admin", "userA"], (p) => p.action === "create" && (p.ticket as { id: number }).id === ticketId);
    expect(got).toEqual(["admin", "supervisor", "supervisorB", "userA"]);
    expect(clients.find((c) => c.name === "foreign")!.events.filter((e) => e.channel.startsWith(`company-${t.companyId}-`))).toEqual([]);
  });
});

describe("user events reach those who may list users and the user themself", () => {
  it("update", async () => {
    await api("PUT", `/api/users/${ids.userA}`, tokens.admin!, { name: "Novo Nome" });
    expect(await receivers("user", ["admin", "userA"])).toEqual(["admin", "userA"]);
  });

  it("create and delete", async () => {
    const created = await api("POST", "/api/users", tokens.admin!, { name: "Criado", email: "criado@audience.test", password: "secret123", profile: "user" });
    expect(await receivers("user", ["admin"], (p) => p.action === "create")).toEqual(["admin"]);
    const root = await app.login("root@platform.test");
    await api("DELETE", `/api/users/${created.id}`, root);
    expect(await receivers("user", ["admin"], (p) => p.action === "delete")).toEqual(["admin"]);
  });
});

describe("company-wide events reach every user of the company and no one else", () => {
  it("contact: a new one reaches the contacts pages open (joinContacts), a change or deletion everyone", async () => {
    const open = clients.filter((c) => ["user", "supervisorB"].includes(c.name) || c.name === "foreign");
    for (const c of open) c.socket.emit("joinContacts");
    const created = await api("POST", "/api/contacts", tokens.user!, { name: "Novo Contato", number: "5511944443333" });
    expect(await receivers("contact", ["supervisorB", "user"], (p) => p.action === "create")).toEqual(["supervisorB", "user"]);
    await api("PUT", `/api/contacts/${created.id}`, tokens.user!, { name: "Contato Renomeado", number: "5511944443333" });
    expect(await receivers("contact", WHOLE_COMPANY, (p) => p.action === "update")).toEqual(WHOLE_COMPANY);
    // the page closed: no more new contacts
    for (const c of open) c.socket.emit("leaveContacts");
    for (const c of clients) c.events.length = 0;
    await api("POST", "/api/contacts", tokens.user!, { name: "Outro Contato", number: "5511944443334" });
    await api("PUT", `/api/contacts/${created.id}`, tokens.user!, { name: "Contato Renomeado 2", number: "5511944443333" });
    await receivers("contact", WHOLE_COMPANY, (p) => p.action === "update");
    expect(clients.filter((c) => c.events.some((e) => e.payload.action === "create")).map((c) => c.name)).toEqual([]);
  });

  it("queue", async () => {
    await api("POST", "/api/queue", tokens.admin!, { name: "Nova Fila", color: "#123456" });
    expect(await receivers("queue", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
  });

  it("tag", async () => {
    await api("POST", "/api/tags", tokens.admin!, { name: "Nova Tag" });
    expect(await receivers("tag", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
  });

  it("whatsapp and whatsappSession", async () => {
    await connectedSandbox(app, tokens.admin!, { name: "Outra" });
    expect(await receivers("whatsapp", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
    expect(await receivers("whatsappSession", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
  });

  it("settings", async () => {
    await api("PUT", "/api/settings/signMessages", tokens.admin!, { value: "enabled" });
    expect(await receivers("settings", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
  });

  it("schedule", async () => {
    await api("POST", "/api/schedules", tokens.user!, { body: "Mensagem agendada", contactId, sendAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await receivers("schedule", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
  });

  it("prompt: the whole company, never another company's", async () => {
    const su = await buildUser(app.sql, t.companyId, { profile: "admin", super: true });
    const res = await api("POST", "/api/prompt", await app.login(su.email), { name: "Bot", prompt: "Seja gentil", apiKey: "sk-1234", queueId: queueA });
    expect(res.name).toBe("Bot");
    expect(await receivers("prompt", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
    expect(clients.find((c) => c.name === "foreign")!.events.some((e) => e.channel.endsWith("-prompt"))).toBe(false);
  });

  it("campaign-updated: the company's supervisors and admins only", async () => {
    const costCenter = await app.sql.one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Centro') RETURNING id", [t.companyId]);
    const business = await app.sql.one<{ id: number }>(
      "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM', 'waba-audience', 't', 's', 'v') RETURNING id",
      [t.companyId],
    );
    const campaign = await app.sql.one<{ id: number }>(
      "INSERT INTO campaigns (company_id, name, status, cost_center_id, business_id) VALUES ($1, 'Campanha', 'RUNNING', $2, $3) RETURNING id",
      [t.companyId, costCenter.id, business.id],
    );
    expect((await app.api("POST", `/api/campaigns/${campaign.id}/pause`, { token: tokens.supervisor })).statusCode).toBe(200);
    expect(await receivers("campaign-updated", ["admin", "supervisor", "supervisorB"])).toEqual(["admin", "supervisor", "supervisorB"]);
  });

  it("payment CONCLUIDA: the company's admins only, never another company's", async () => {
    await app.sql.exec("UPDATE plans SET value = 30 WHERE id = (SELECT plan_id FROM companies WHERE id = $1)", [t.companyId]);
    const invoice = await app.sql.one<{ id: number }>(
      "INSERT INTO invoices (company_id, due_date, recurrence, detail, value) VALUES ($1, current_date + 3, 'MENSAL', 'Plano', 30) RETURNING id",
      [t.companyId],
    );
    const pix = await api("POST", "/api/subscription", tokens.admin!, { firstName: "Ana", address2: "Rua", city: "Recife", zipcode: "50000", country: "BR", invoiceId: invoice.id });
    expect((await app.api("POST", "/api/pix/sandbox/pay", { body: { txid: pix.txid } })).statusCode).toBe(200);
    expect(await receivers("payment", ["admin"], (p) => p.action === "CONCLUIDA")).toEqual(["admin"]);
    expect(clients.find((c) => c.name === "foreign")!.events.some((e) => e.channel.endsWith("-payment"))).toBe(false);
  });

  it("quickMessage: a company-wide one to everyone, a private one to its author only", async () => {
    await api("POST", "/api/quick-messages", tokens.userB!, { shortcode: "todos", message: "Olá", geral: true });
    expect(await receivers("quickmessage", WHOLE_COMPANY)).toEqual(WHOLE_COMPANY);
    for (const c of clients) c.events.length = 0;
    await api("POST", "/api/quick-messages", tokens.userB!, { shortcode: "minha", message: "Olá", geral: false });
    expect(await receivers("quickmessage", ["userB"])).toEqual(["userB"]);
  });
});

describe("platform-wide events", () => {
  it("announcement: every signed-in user of every company, the other company's too", async () => {
    const root = await app.login("root@platform.test");
    await api("POST", "/api/announcements", root, { title: "Manutenção", text: "Sábado às 22h" });
    const everyone = [...WHOLE_COMPANY, "foreign"].sort();
    const got = () => clients.filter((c) => c.events.some((e) => e.channel === "company-announcement" && e.payload.action === "create")).map((c) => c.name);
    const until = Date.now() + 8000;
    while (got().length < everyone.length && Date.now() < until) await new Promise((r) => setTimeout(r, 30));
    expect(got().sort()).toEqual(everyone);
  });
});

describe("campaign events reach the company's supervisors and administrators", () => {
  it("campaign-created, then campaign-updated when its analysis ends", async () => {
    const world = await seedCampaignWorld(app, t.companyId);
    const res = await postCampaign(app, tokens.supervisor!, campaignForm(world, { name: "lista.csv", data: "telefone;cpf;email\n11988887777;1;a@x.com\n" }));
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const match = (p: Record<string, unknown>) => (p.campaign as { id?: number } | undefined)?.id === id;
    expect(await receivers("campaign-created", ["admin", "supervisor", "supervisorB"], match)).toEqual(["admin", "supervisor", "supervisorB"]);
    expect(await receivers("campaign-updated", ["admin", "supervisor", "supervisorB"], match)).toEqual(["admin", "supervisor", "supervisorB"]);
    expect(clients.find((c) => c.name === "foreign")!.events.filter((e) => e.channel.startsWith(`company-${t.companyId}-`))).toEqual([]);
  });
});

describe("SMS campaign events reach the company's supervisors and administrators", () => {
  it("sms-campaign-created, then sms-campaign-updated on a status change", async () => {
    const costCenter = await app.sql.one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Centro SMS') RETURNING id", [t.companyId]);
    const template = await app.sql.one<{ id: number }>("INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Aviso', 'Olá') RETURNING id", [t.companyId]);
    const res = await app.api("POST", "/api/sms/campaigns/", { token: tokens.supervisor, body: { title: "SMS", cost_center_id: costCenter.id, template: template.id, filename: "a.csv" } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const match = (p: Record<string, unknown>) => (p.campaign as { id?: number } | undefined)?.id === id;
    expect(await receivers("sms-campaign-created", ["admin", "supervisor", "supervisorB"], match)).toEqual(["admin", "supervisor", "supervisorB"]);
    expect((await app.api("POST", `/api/sms/campaigns/${id}/cancel/`, { token: tokens.supervisor })).statusCode).toBe(200);
    expect(await receivers("sms-campaign-updated", ["admin", "supervisor", "supervisorB"], match)).toEqual(["admin", "supervisor", "supervisorB"]);
    expect(clients.find((c) => c.name === "foreign")!.events.some((e) => e.channel.includes("sms-campaign"))).toBe(false);
  });
});

describe("e-mail campaign events reach the company's supervisors and administrators", () => {
  it("email-campaign: created, then updated when its file arrives and its analysis ends", async () => {
    const world = await seedEmailWorld(app, t.companyId);
    const res = await app.api("POST", "/api/email/campaigns/", { token: tokens.supervisor, body: createBody(world) });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const created = (p: Record<string, unknown>) => p.action === "create" && (p.campaign as { id?: number } | undefined)?.id === id;
    expect(await receivers("email-campaign", ["admin", "supervisor", "supervisorB"], created)).toEqual(["admin", "supervisor", "supervisorB"]);
    const analysed = await createWithFile(app, tokens.supervisor!, world, "telefone;cpf;email;nome\n1;;a@x.test;A\n");
    const active = (p: Record<string, unknown>) => (p.campaign as { id?: number; status?: string } | undefined)?.id === analysed && (p.campaign as { status?: string }).status === "ACTIVE";
    expect(await receivers("email-campaign", ["admin", "supervisor", "supervisorB"], active)).toEqual(["admin", "supervisor", "supervisorB"]);
    expect(clients.find((c) => c.name === "foreign")!.events.filter((e) => e.channel.includes("email-campaign"))).toEqual([]);
  });
});

describe("auth", () => {
  it("a new login reaches only that user's sockets", async () => {
    const u = await app.sql.one<{ email: string }>("SELECT email FROM users WHERE id = $1", [ids.userB]);
    await app.login(u.email);
    expect(await receivers("auth", ["userB"])).toEqual(["userB"]);
  });
});

describe("queue integration events reach the company's super users only", () => {
  it("queueIntegration: the company's super user, not its admins or users, nor another company's super", async () => {
    const root = await app.login((await buildUser(app.sql, t.companyId, { profile: "admin", super: true })).email);
    const foreignRoot = await app.login((await buildUser(app.sql, other.companyId, { profile: "admin", super: true })).email);
    const extra = [
      { name: "root", ...(await socketFor(root)) },
      { name: "foreignRoot", ...(await socketFor(foreignRoot)) },
    ];
    clients.push(...extra);
    try {
      await api("POST", "/api/queueIntegration", root, { type: "webhook", name: "Gancho", urlN8N: "https://hooks.example.com/a" });
      expect(await receivers("queueIntegration", ["root"])).toEqual(["root"]);
    } finally {
      for (const c of extra) {
        c.socket.close();
        clients.splice(clients.indexOf(c), 1);
      }
    }
  });
});
