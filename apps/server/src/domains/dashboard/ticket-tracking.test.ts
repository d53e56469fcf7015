import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, setSetting } from "../../channels/testing.js";

/**
 * The holdings migrations 0400 and 0812's triggers record (one row per interval of a cycle held by one
 * agent and queue), driven through the real routes and the inbound pipeline.
 */

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let queueA: number;
let queueB: number;
let bruna: { id: number; token: string };
let wa: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-tracking-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
  queueB = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
  const b = await buildUser(app.sql, t.companyId, { profile: "user", name: "Bruna", queueIds: [queueA, queueB] });
  bruna = { id: b.id, token: await app.login(b.email) };
  await app.sql.exec("INSERT INTO user_queues (company_id, user_id, queue_id) VALUES ($1, $2, $3)", [t.companyId, t.user.id, queueA]);
  wa = await connectedSandbox(app, t.admin.token, {
    queueIds: [queueA],
    complationMessage: "Atendimento encerrado.",
    fields: { ratingMessage: "Avalie de 1 a 5." },
  });
  await setSetting(app, t.companyId, "userRating", "enabled");
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface Cycle {
  user_id: number | null;
  queue_id: number | null;
  whatsapp_id: number | null;
  origin_from_me: boolean;
  transfers: number;
  rating: number | null;
  waited: boolean;
  started: boolean;
  finished: boolean;
  rated: boolean;
  opened: number;
  ended: boolean;
}

const cycles = (ticketId: number) =>
  app.sql.many<Cycle>(
    `SELECT user_id, queue_id, whatsapp_id, origin_from_me, transfers, rating,
            started_at > queued_at AS waited, started_at IS NOT NULL AS started, finished_at IS NOT NULL AS finished, rated_at IS NOT NULL AS rated,
            opened, ended_at IS NOT NULL AS ended
       FROM ticket_traking WHERE company_id = $1 AND ticket_id = $2 ORDER BY id`,
    [t.companyId, ticketId],
  );

async function put(id: number, token: string, body: unknown) {
  const res = await app.api("PUT", `/api/tickets/${id}`, { token, body });
  expect(res.statusCode, res.body).toBe(200);
}

describe("ticket tracking", () => {
  it("records a customer's cycle through accept, transfers, close, rating and reopen: one holding per holder", async () => {
    const number = "5511988880001";
    const { ticketId } = await inbound(app, t.admin.token, wa, { number, body: "Oi" });
    expect(await cycles(ticketId)).toEqual([
      { user_id: null, queue_id: queueA, whatsapp_id: wa, origin_from_me: false, transfers: 0, rating: null, waited: null, started: false, finished: false, rated: false, opened: 0, ended: false },
    ]);

    await new Promise((r) => setTimeout(r, 20)); // a measurable wait
    await put(ticketId, t.user.token, { action: "accept" });
    expect(await cycles(ticketId)).toMatchObject([{ user_id: t.user.id, started: true, waited: true, transfers: 0, opened: 0 }]);

    // to queue B without a user: the agent's holding in queue A ends, queue B's begins (pending)
    await put(ticketId, t.admin.token, { action: "transfer", queueId: queueB });
    expect(await cycles(ticketId)).toMatchObject([
      { user_id: t.user.id, queue_id: queueA, transfers: 0, started: true, ended: true, finished: false, opened: 0 },
      { user_id: null, queue_id: queueB, transfers: 1, started: false, ended: false, opened: 2 },
    ]);
    // Bruna takes it from queue B (her holding, after a wait), then it goes to queue A with the agent named
    await new Promise((r) => setTimeout(r, 20));
    await put(ticketId, bruna.token, { action: "accept" });
    await put(ticketId, t.admin.token, { action: "transfer", queueId: queueA, userId: t.user.id });
    expect(await cycles(ticketId)).toMatchObject([
      { user_id: t.user.id, queue_id: queueA, ended: true },
      { user_id: bruna.id, queue_id: queueB, started: true, waited: true, ended: true, finished: false },
      { user_id: t.user.id, queue_id: queueA, transfers: 2, started: true, waited: false, ended: false, opened: 2 },
    ]);

    await put(ticketId, t.user.token, { action: "finish" });
    await inbound(app, t.admin.token, wa, { number, body: "4" });
    // the close and the rating belong to the holding that closed it
    expect((await cycles(ticketId)).map((c) => [c.finished, c.rating])).toEqual([
      [false, null],
      [false, null],
      [true, 4],
    ]);

    // reopened by the admin: a new cycle (opened 1: not a new ticket), open at once (no wait)
    await put(ticketId, t.admin.token, { action: "reopen" });
    const four = await cycles(ticketId);
    expect(four).toHaveLength(4);
    expect(four[3]).toEqual({
      user_id: t.admin.id,
      queue_id: queueA,
      whatsapp_id: wa,
      origin_from_me: false,
      transfers: 0,
      rating: null,
      waited: false,
      started: true,
      finished: false,
      rated: false,
      opened: 1,
      ended: false,
    });
    await put(ticketId, t.admin.token, { action: "finish" });
    expect((await cycles(ticketId)).map((c) => [c.finished, c.ended])).toEqual([
      [false, true],
      [false, true],
      [true, true],
      [true, true],
    ]);
  });

  it("a ticket an agent opens is ativo and starts at once", async () => {
    const res = await app.api("POST", "/api/tickets", {
      token: t.admin.token,
      body: { number: "5511988880002", whatsappId: wa, userId: t.admin.id, status: "open", queueId: queueA },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await cycles(res.json().id as number)).toEqual([
      { user_id: t.admin.id, queue_id: queueA, whatsapp_id: wa, origin_from_me: true, transfers: 0, rating: null, waited: false, started: true, finished: false, rated: false, opened: 0, ended: false },
    ]);
  });

  it("a ticket written already closed (an import) gets a finished cycle", async () => {
    const contact = await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Importado', '5511988880009') RETURNING id", [
      t.companyId,
    ]);
    const { id } = await app.sql.one<{ id: number }>(
      `INSERT INTO tickets (company_id, contact_id, status, user_id, origin_from_me, created_at, closed_at)
       VALUES ($1, $2, 'closed', $3, false, '2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z') RETURNING id`,
      [t.companyId, contact.id, t.user.id],
    );
    expect(await app.sql.many("SELECT queued_at, started_at, finished_at FROM ticket_traking WHERE ticket_id = $1", [id])).toEqual([
      { queued_at: new Date("2026-01-05T10:00:00Z"), started_at: null, finished_at: new Date("2026-01-05T11:00:00Z") },
    ]);
  });

  it("a close by any path (a plain UPDATE, as the inactivity expiry does) and a deletion are followed", async () => {
    const { ticketId } = await inbound(app, t.admin.token, wa, { number: "5511988880003", body: "Oi" });
    await app.sql.exec("UPDATE tickets SET status = 'closed', closed_at = now() WHERE id = $1", [ticketId]);
    expect(await cycles(ticketId)).toMatchObject([{ finished: true, started: false }]);
    await app.sql.exec("DELETE FROM tickets WHERE id = $1", [ticketId]);
    expect(await cycles(ticketId)).toEqual([]);
  });
});
