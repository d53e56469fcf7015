import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, phoneOutbox, setSetting } from "../../channels/testing.js";

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let agents: { id: number; token: string }[];
let queueA: number;
let queueB: number;
let queueC: number;
let queueD: number;
let wa: number;
let seq = 0;
const newNumber = () => `5521${String(910000000 + ++seq * 7717).slice(0, 9)}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-races-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
  queueB = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
  queueC = await buildQueue(app.sql, t.companyId, { name: "Financeiro" });
  queueD = await buildQueue(app.sql, t.companyId, { name: "Cobrança" });
  agents = [];
  for (const name of ["Ana", "Bruno", "Caio"]) {
    const u = await buildUser(app.sql, t.companyId, { profile: "user", name });
    await app.sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, u.id, queueA]);
    agents.push({ id: u.id, token: await app.login(u.email) });
  }
  wa = await connectedSandbox(app, t.admin.token, { queueIds: [queueA] });
  await setSetting(app, t.companyId, "sendGreetingAccepted", "enabled");
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * Runs the requests while the test holds the ticket's row lock, and releases it only once all of
 * them wait for it: every request has read the ticket as it was before any of them changed it,
 * which is the race two agents clicking together produce.
 */
async function race(ticketId: number, requests: (() => Promise<{ statusCode: number; json(): unknown }>)[]) {
  const holder = new pg.Client({ connectionString: app.databaseUrl });
  await holder.connect();
  try {
    await holder.query("BEGIN");
    await holder.query("SELECT id FROM tickets WHERE id = $1 FOR UPDATE", [ticketId]);
    const pending = requests.map((r) => r());
    const deadline = Date.now() + 10_000;
    for (;;) {
      // pg_stat_activity is read once per transaction unless its snapshot is dropped
      await holder.query("SELECT pg_stat_clear_snapshot()");
      const { rows } = await holder.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'",
      );
      if (rows[0]!.n === requests.length) break;
      if (Date.now() > deadline) {
        throw new Error(`only ${rows[0]!.n} of ${requests.length} requests reached the row lock`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await holder.query("COMMIT");
    return await Promise.all(pending);
  } finally {
    await holder.end();
  }
}

function outcome(responses: { statusCode: number; json(): unknown }[]) {
  const won = responses.filter((r) => r.statusCode === 200);
  const lost = responses.filter((r) => r.statusCode !== 200);
  return { won, lost: lost.map((r) => ({ status: r.statusCode, body: r.json() as { error: string; ticket: Record<string, unknown> } })) };
}

describe("tickets: concurrent transitions have one winner", () => {
  it("three agents accept the same ticket: one wins, two get 409 with the ticket, the customer is greeted once", async () => {
    const number = newNumber();
    const id = (await inbound(app, t.admin.token, wa, { number, name: "Joana Lima" })).ticketId;
    const responses = await race(
      id,
      agents.map((a) => () => app.api("PUT", `/api/tickets/${id}`, { token: a.token, body: { action: "accept", status: "open", userId: a.id } })),
    );
    const { won, lost } = outcome(responses);
    expect(won).toHaveLength(1);
    const winner = (won[0]!.json() as { userId: number }).userId;
    expect(lost).toHaveLength(2);
    for (const l of lost) {
      expect(l.status).toBe(409);
      expect(l.body).toMatchObject({ error: "ERR_TICKET_ALREADY_CHANGED", ticket: { id, status: "open", userId: winner } });
    }
    const greetings = (await phoneOutbox(app, t.admin.token, wa, number)).filter((b) => b.includes("meu nome é"));
    expect(greetings).toHaveLength(1);
    const stored = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me AND body LIKE '%meu nome é%'", [id]);
    expect(stored.n).toBe(1);
    const tracking = await app.sql.many<{ user_id: number }>("SELECT user_id FROM ticket_traking WHERE ticket_id = $1", [id]);
    expect(tracking.map((r) => r.user_id)).toEqual([winner]);
  });

  it("three closes of one ticket: one wins, the completion message is sent once", async () => {
    await app.api("PUT", `/api/whatsapp/${wa}`, { token: t.admin.token, body: { complationMessage: "Até logo, {{firstName}}!" } });
    try {
      const number = newNumber();
      const id = (await inbound(app, t.admin.token, wa, { number, name: "Rui Costa" })).ticketId;
      const responses = await race(
        id,
        agents.map((a) => () => app.api("PUT", `/api/tickets/${id}`, { token: a.token, body: { action: "finish", status: "closed" } })),
      );
      const { won, lost } = outcome(responses);
      expect(won).toHaveLength(1);
      expect(lost.map((l) => [l.status, l.body.error, l.body.ticket.status])).toEqual([
        [409, "ERR_TICKET_ALREADY_CHANGED", "closed"],
        [409, "ERR_TICKET_ALREADY_CHANGED", "closed"],
      ]);
      expect((await phoneOutbox(app, t.admin.token, wa, number)).filter((b) => b === "Até logo, Rui!")).toHaveLength(1);
    } finally {
      await app.api("PUT", `/api/whatsapp/${wa}`, { token: t.admin.token, body: { complationMessage: "" } });
    }
  });

  it("three transfers to different queues: one wins, the ticket ends in the winner's queue", async () => {
    const id = (await inbound(app, t.admin.token, wa, { number: newNumber() })).ticketId;
    // none of them the ticket's own queue (A): a transfer to where it already is changes nothing, so it is no conflict
    const targets = [queueB, queueC, queueD];
    const responses = await race(
      id,
      targets.map((queueId) => () => app.api("PUT", `/api/tickets/${id}`, { token: t.admin.token, body: { action: "transfer", queueId, userId: null } })),
    );
    const { won, lost } = outcome(responses);
    expect(won).toHaveLength(1);
    const winnerQueue = (won[0]!.json() as { queueId: number }).queueId;
    expect(lost).toHaveLength(2);
    for (const l of lost) expect(l.body).toMatchObject({ error: "ERR_TICKET_ALREADY_CHANGED", ticket: { id, queueId: winnerQueue } });
    const now = await app.api("GET", `/api/tickets/${id}`, { token: t.admin.token });
    expect(now.json().queueId).toBe(winnerQueue);
  });

  it("a loser who can no longer see the ticket gets the 409 without it", async () => {
    const id = (await inbound(app, t.admin.token, wa, { number: newNumber() })).ticketId;
    const agent = agents[0]!;
    // the admin moves it to a queue the agent is not in; the agent tries to take it in queue A
    const responses = await race(id, [
      () => app.api("PUT", `/api/tickets/${id}`, { token: t.admin.token, body: { action: "transfer", queueId: queueB, userId: null } }),
      () => app.api("PUT", `/api/tickets/${id}`, { token: agent.token, body: { action: "accept" } }),
    ]);
    const { won, lost } = outcome(responses);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.body.error).toBe("ERR_TICKET_ALREADY_CHANGED");
    if (responses[0]!.statusCode === 200) expect(lost[0]!.body).not.toHaveProperty("ticket"); // pending in queue B: out of the agent's sight
    else expect(lost[0]!.body.ticket).toMatchObject({ id, status: "open", userId: agent.id }); // the admin sees every ticket
  });

  it("an action the ticket's status no longer allows is a 409 with the current ticket", async () => {
    const id = (await inbound(app, t.admin.token, wa, { number: newNumber() })).ticketId;
    expect((await app.api("PUT", `/api/tickets/${id}`, { token: agents[0]!.token, body: { action: "accept" } })).statusCode).toBe(200);
    const late = await app.api("PUT", `/api/tickets/${id}`, { token: agents[1]!.token, body: { action: "accept" } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: "ERR_TICKET_ALREADY_CHANGED", ticket: { id, status: "open", userId: agents[0]!.id } });
  });
});
