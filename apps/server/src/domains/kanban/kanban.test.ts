import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { insertContact, insertTicket } from "../schedules/test-fixtures.js";

let app: TestApp;
let base: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
const sockets: Socket[] = [];

async function tag(companyId: number, name: string, kanban: 0 | 1) {
  const row = await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, kanban) VALUES ($1, $2, $3) RETURNING id", [companyId, name, kanban]);
  return row.id;
}
const tagsOf = async (ticketId: number) =>
  (await app.sql.many<{ tag_id: number }>("SELECT tag_id FROM ticket_tags WHERE ticket_id = $1 ORDER BY tag_id", [ticketId])).map((r) => r.tag_id);

let lane1: number;
let lane2: number;
let plainTag: number;
let queueA: number;
let queueB: number;

beforeAll(async () => {
  app = await createTestApp();
  base = await app.listen();
  t = await buildTenant(app);
  other = await buildTenant(app);
  lane1 = await tag(t.companyId, "Prospecção", 1);
  lane2 = await tag(t.companyId, "Negociação", 1);
  plainTag = await tag(t.companyId, "VIP", 0);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Fila A" });
  queueB = await buildQueue(app.sql, t.companyId, { name: "Fila B" });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
});

/** A plain user in queue A, logged in again so the token carries the membership. */
async function agentInQueueA() {
  const u = await buildUser(app.sql, t.companyId, { profile: "user", queueIds: [queueA] });
  return { ...u, token: await app.login(u.email) };
}

const ticket = async (o: { status?: string; queueId?: number | null; userId?: number | null } = {}) =>
  insertTicket(app.sql, t.companyId, { contactId: await insertContact(app.sql, t.companyId), status: o.status ?? "open", queueId: o.queueId ?? null, userId: o.userId ?? null });

describe("kanban: access", () => {
  it("refuses every route without a session", async () => {
    expect((await app.api("GET", "/api/ticket/kanban")).statusCode).toBe(401);
    expect((await app.api("PUT", "/api/ticket-tags/1/1")).statusCode).toBe(401);
    expect((await app.api("DELETE", "/api/ticket-tags/1")).statusCode).toBe(401);
  });

  it("answers 403 ERR_PLAN_FEATURE_DISABLED without the useKanban plan flag", async () => {
    const off = await buildTenant(app, { plan: { flags: { useKanban: false } } });
    const c = await insertContact(app.sql, off.companyId);
    const tk = await insertTicket(app.sql, off.companyId, { contactId: c });
    const tg = await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, kanban) VALUES ($1, 'Lane', 1) RETURNING id", [off.companyId]);
    for (const [method, url] of [
      ["GET", "/api/ticket/kanban"],
      ["PUT", `/api/ticket-tags/${tk}/${tg.id}`],
      ["DELETE", `/api/ticket-tags/${tk}`],
    ] as const) {
      const res = await app.api(method, url, { token: off.admin.token });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toBe("ERR_PLAN_FEATURE_DISABLED");
    }
    expect(await tagsOf(tk)).toEqual([]);
  });

  it("keeps companies apart: foreign tickets and tags are not found and never listed", async () => {
    const foreignContact = await insertContact(app.sql, other.companyId);
    const foreignTicket = await insertTicket(app.sql, other.companyId, { contactId: foreignContact });
    const foreignTag = await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, kanban) VALUES ($1, 'Alheia', 1) RETURNING id", [other.companyId]);
    const mine = await ticket();
    const a = await app.api("PUT", `/api/ticket-tags/${foreignTicket}/${lane1}`, { token: t.admin.token });
    expect(a.statusCode).toBe(404);
    expect(a.json().error).toBe("ERR_NO_TICKET_FOUND");
    const b = await app.api("PUT", `/api/ticket-tags/${mine}/${foreignTag.id}`, { token: t.admin.token });
    expect(b.statusCode).toBe(404);
    expect((await app.api("DELETE", `/api/ticket-tags/${foreignTicket}`, { token: t.admin.token })).statusCode).toBe(404);
    expect(await tagsOf(mine)).toEqual([]);
    expect(await tagsOf(foreignTicket)).toEqual([]);
    const list = (await app.api("GET", "/api/ticket/kanban", { token: t.admin.token })).json();
    expect(list.tickets.map((x: { id: number }) => x.id)).not.toContain(foreignTicket);
  });

  it("lets a plain user move only their own open tickets; admins move any", async () => {
    const agent = await agentInQueueA();
    const own = await ticket({ queueId: queueA, userId: agent.id });
    const pendingInQueue = await ticket({ queueId: queueA, status: "pending" });
    const othersTicket = await ticket({ queueId: queueA, userId: t.admin.id });
    expect((await app.api("PUT", `/api/ticket-tags/${own}/${lane1}`, { token: agent.token })).statusCode).toBe(200);
    for (const id of [pendingInQueue, othersTicket]) {
      const res = await app.api("PUT", `/api/ticket-tags/${id}/${lane1}`, { token: agent.token });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
      expect((await app.api("DELETE", `/api/ticket-tags/${id}`, { token: agent.token })).statusCode).toBe(403);
    }
    const sup = await app.api("PUT", `/api/ticket-tags/${pendingInQueue}/${lane1}`, { token: t.supervisor.token });
    expect(sup.statusCode).toBe(403);
    expect((await app.api("PUT", `/api/ticket-tags/${pendingInQueue}/${lane1}`, { token: t.admin.token })).statusCode).toBe(200);
    // A ticket in a queue the user is not in is not even visible.
    const hidden = await ticket({ queueId: queueB });
    const res = await app.api("PUT", `/api/ticket-tags/${hidden}/${lane1}`, { token: agent.token });
    expect(res.statusCode).toBe(403);
  });
});

describe("kanban: board and moves", () => {
  it("lists open and pending tickets with tags and contact, as the user may see them, filtered by queue", async () => {
    const tenant = await buildTenant(app);
    const qa = await buildQueue(app.sql, tenant.companyId);
    const qb = await buildQueue(app.sql, tenant.companyId);
    const c = await insertContact(app.sql, tenant.companyId, { name: "Rosa Lima" });
    // One contact per ticket: a contact has at most one ticket that is not closed per connection.
    const mk = async (status: string, queueId: number | null) =>
      insertTicket(app.sql, tenant.companyId, { contactId: await insertContact(app.sql, tenant.companyId), status, queueId });
    const openA = await insertTicket(app.sql, tenant.companyId, { contactId: c, status: "open", queueId: qa });
    const pendingB = await mk("pending", qb);
    const closedA = await mk("closed", qa);
    const pausedA = await mk("paused", qa);
    const noQueue = await mk("pending", null);
    const lane = await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, kanban, color) VALUES ($1, 'Lane X', 1, '#ff0000') RETURNING id", [tenant.companyId]);
    await app.sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [tenant.companyId, openA, lane.id]);

    const all = (await app.api("GET", "/api/ticket/kanban", { token: tenant.admin.token })).json();
    const ids = all.tickets.map((x: { id: number }) => x.id).sort();
    expect(ids).toEqual([openA, pendingB, noQueue].sort());
    expect(ids).not.toContain(closedA);
    expect(ids).not.toContain(pausedA);
    const withTag = all.tickets.find((x: { id: number }) => x.id === openA);
    expect(withTag.tags).toEqual([{ id: lane.id, name: "Lane X", color: "#ff0000" }]);
    expect(withTag.contact).toMatchObject({ id: c, name: "Rosa Lima" });

    const onlyA = (await app.api("GET", `/api/ticket/kanban?queueIds=${encodeURIComponent(JSON.stringify([qa]))}`, { token: tenant.admin.token })).json();
    expect(onlyA.tickets.map((x: { id: number }) => x.id).sort()).toEqual([openA, noQueue].sort());
    const comma = (await app.api("GET", `/api/ticket/kanban?queueIds=${qb}`, { token: tenant.admin.token })).json();
    expect(comma.tickets.map((x: { id: number }) => x.id).sort()).toEqual([pendingB, noQueue].sort());

    const agent = await buildUser(app.sql, tenant.companyId, { profile: "user", queueIds: [qa] });
    const agentToken = await app.login(agent.email);
    const mine = (await app.api("GET", "/api/ticket/kanban", { token: agentToken })).json();
    expect(mine.tickets.map((x: { id: number }) => x.id)).toEqual([openA]);
    expect((await app.api("GET", "/api/ticket/kanban?queueIds=abc", { token: agentToken })).statusCode).toBe(400);
  });

  it("moves a card: DELETE removes only kanban tags, PUT adds the target lane; toasts and live update", async () => {
    const id = await ticket({ queueId: queueA });
    await app.sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3), ($1, $2, $4)", [t.companyId, id, lane1, plainTag]);
    const socket = connect(base, { auth: { token: t.admin.token }, transports: ["websocket"] });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    const updates: { action: string; ticket: { id: number; tags: { id: number }[] } }[] = [];
    socket.on(`company-${t.companyId}-ticket`, (e) => updates.push(e));

    const del = await app.api("DELETE", `/api/ticket-tags/${id}`, { token: t.admin.token });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe("Ticket Tag Removido!");
    expect(await tagsOf(id)).toEqual([plainTag]);
    const put = await app.api("PUT", `/api/ticket-tags/${id}/${lane2}`, { token: t.admin.token });
    expect(put.statusCode).toBe(200);
    expect(put.json().message).toBe("Ticket Tag Adicionado com Sucesso!");
    expect(put.json().ticket.tags.map((x: { id: number }) => x.id).sort()).toEqual([lane2, plainTag].sort());
    expect(await tagsOf(id)).toEqual([lane2, plainTag].sort((a, b) => a - b));
    // Adding the same tag twice is harmless.
    expect((await app.api("PUT", `/api/ticket-tags/${id}/${lane2}`, { token: t.admin.token })).statusCode).toBe(200);
    expect(await tagsOf(id)).toHaveLength(2);

    const deadline = Date.now() + 3000;
    while (updates.filter((u) => u.ticket?.id === id).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const mine = updates.filter((u) => u.ticket?.id === id);
    expect(mine[0]).toMatchObject({ action: "update", ticket: { id, tags: [{ id: plainTag }] } });
    expect(mine[1]!.ticket.tags.map((x) => x.id).sort()).toEqual([lane2, plainTag].sort());
  });

  it("moves a card back to 'Em aberto' with DELETE alone", async () => {
    const id = await ticket({ queueId: queueA });
    await app.api("PUT", `/api/ticket-tags/${id}/${lane1}`, { token: t.admin.token });
    await app.api("DELETE", `/api/ticket-tags/${id}`, { token: t.admin.token });
    const board = (await app.api("GET", "/api/ticket/kanban", { token: t.admin.token })).json();
    expect(board.tickets.find((x: { id: number }) => x.id === id).tags).toEqual([]);
  });
});
