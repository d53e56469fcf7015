import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../app.js";
import { buildTenant, createTestApp, type TestApp } from "../../test/helper.js";
import { channels, OUTBOX_POLL_MS } from "./manager.js";
import { connectedSandbox, inbound } from "./testing.js";

/** Two server processes on one database: A (the test app) and B, built on A's pool. */
let a: TestApp;
let b: BuiltApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let wa: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-owners-"));
  a = await createTestApp({ dataDir });
  t = await buildTenant(a);
  wa = await connectedSandbox(a, t.admin.token); // started (and leased) by A
  b = await buildApp({ ...a.ctx.config }, a.pool, a.databaseUrl);
  await b.start();
  await b.app.ready(); // B's start-up resumes only connections nobody runs
});
afterAll(async () => {
  await b.close();
  await a.close();
  await rm(dataDir, { recursive: true, force: true });
});

const onB = (method: string, url: string, body?: unknown) =>
  b.app.inject({ method: method as "POST", url, payload: body as object, headers: { authorization: `Bearer ${t.admin.token}` } });
const inboundOnB = async (number: string) => {
  const res = await onB("POST", `/api/sandbox/${wa}/inbound`, { number, name: "Cliente", body: "Olá" });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json() as { ticketId: number };
};
const phoneCount = async (body: string) =>
  (await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_messages WHERE whatsapp_id = $1 AND direction = 'outbound' AND body = $2", [wa, body])).n;
const owner = async () => (await a.sql.one<{ owner_id: string }>("SELECT owner_id FROM connection_owners WHERE whatsapp_id = $1", [wa])).owner_id;

describe("a connection's driver runs in one process", () => {
  it("B does not start a connection A runs; an agent's message sent on B is delivered once by A", async () => {
    expect(await owner()).toBe(channels(a.ctx).ownerId);
    expect(channels(b.ctx).get(wa)).toBeUndefined();
    const { ticketId } = await inbound(a, t.admin.token, wa, { number: "5531977770001" });
    await a.api("PUT", `/api/tickets/${ticketId}`, { token: t.admin.token, body: { action: "accept" } });

    const res = await onB("POST", `/api/messages/${ticketId}`, { body: "enviada pelo processo B", sign: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messages[0]).toMatchObject({ body: "enviada pelo processo B", ack: 1, fromMe: true });
    expect(await phoneCount("enviada pelo processo B")).toBe(1);
    const rows = await a.sql.many<{ send_status: string; provider_id: string | null }>("SELECT send_status, provider_id FROM messages WHERE body = $1", [
      "enviada pelo processo B",
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.send_status).toBe("sent");
    expect(rows[0]!.provider_id).toMatch(/^SB/);

    // several at once from B: each once, in the order they were stored
    const bodies = Array.from({ length: 6 }, (_, i) => `lote ${i}`);
    const all = await Promise.all(bodies.map((body) => onB("POST", `/api/messages/${ticketId}`, { body, sign: false })));
    expect(all.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));
    for (const body of bodies) expect(await phoneCount(body)).toBe(1);
    const stored = await a.sql.many<{ body: string }>("SELECT body FROM messages WHERE ticket_id = $1 AND body LIKE 'lote %' ORDER BY id", [ticketId]);
    const phone = await a.sql.many<{ body: string }>(
      "SELECT body FROM sandbox_messages WHERE whatsapp_id = $1 AND direction = 'outbound' AND body LIKE 'lote %' ORDER BY id",
      [wa],
    );
    expect(phone.map((p) => p.body)).toEqual(stored.map((s) => s.body));
  });

  it("an expired lease is taken by the other process, which then sends for both", async () => {
    await a.sql.exec("UPDATE connection_owners SET heartbeat_at = now() - interval '5 minutes' WHERE whatsapp_id = $1", [wa]);
    await channels(b.ctx).tick();
    expect(await owner()).toBe(channels(b.ctx).ownerId);
    expect(channels(b.ctx).get(wa)).toBeDefined();
    const until = Date.now() + 5000;
    while (channels(a.ctx).get(wa) && Date.now() < until) await new Promise((r) => setTimeout(r, OUTBOX_POLL_MS / 5));
    expect(channels(a.ctx).get(wa)).toBeUndefined(); // A noticed and stopped its driver

    const { ticketId } = await inboundOnB("5531977770002");
    await a.api("PUT", `/api/tickets/${ticketId}`, { token: t.admin.token, body: { action: "accept" } });
    const res = await a.api("POST", `/api/messages/${ticketId}`, { token: t.admin.token, body: { body: "enviada por A, entregue por B", sign: false } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await phoneCount("enviada por A, entregue por B")).toBe(1);
  });

  it("a process shutting down frees and announces its connections: the other takes them at once", async () => {
    expect(await owner()).toBe(channels(b.ctx).ownerId);
    await channels(b.ctx).stopAll(); // B shuts down: its lease is freed and announced (NOTIFY)
    const until = Date.now() + 5000;
    const current = async () => (await a.sql.maybe<{ owner_id: string }>("SELECT owner_id FROM connection_owners WHERE whatsapp_id = $1", [wa]))?.owner_id;
    while ((await current()) !== channels(a.ctx).ownerId && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await owner()).toBe(channels(a.ctx).ownerId);
    expect(channels(a.ctx).get(wa)).toBeDefined();
    await channels(b.ctx).startConnected(); // B back (its start takes nothing: A runs it)
  });

  it("a connection nobody runs cannot send: ERR_WAPP_NOT_INITIALIZED and nothing stored", async () => {
    const { ticketId } = await inbound(a, t.admin.token, wa, { number: "5531977770003" });
    await a.api("PUT", `/api/tickets/${ticketId}`, { token: t.admin.token, body: { action: "accept" } });
    // both stop running it (B's manager already stopped: it no longer takes announced connections)
    await channels(b.ctx).stopAll();
    await channels(a.ctx).stopAll();
    const res = await a.api("POST", `/api/messages/${ticketId}`, { token: t.admin.token, body: { body: "ninguém envia", sign: false } });
    expect(res.json().error).toBe("ERR_WAPP_NOT_INITIALIZED");
    expect((await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE body = 'ninguém envia'")).n).toBe(0);
    // a live process resumes it (its start, or its next heartbeat)
    await channels(a.ctx).startConnected();
    expect(await owner()).toBe(channels(a.ctx).ownerId);
    expect((await a.api("POST", `/api/messages/${ticketId}`, { token: t.admin.token, body: { body: "retomada", sign: false } })).statusCode).toBe(200);
  });
});

describe("leases of a process that is gone", () => {
  it("a start takes over at once the connections of a process of this host that died without releasing them", async () => {
    const { hostname } = await import("node:os");
    const { ownerIsGone, releaseGoneOwners } = await import("./ownership.js");
    const dead = `${hostname()}:999999:dead0001`;
    const elsewhere = "another-host:1234:cafe0001";
    expect(ownerIsGone(dead)).toBe(true);
    expect(ownerIsGone(elsewhere)).toBe(false);
    expect(ownerIsGone(channels(a.ctx).ownerId)).toBe(false);

    // a fresh heartbeat, as left by a process killed a moment ago
    await a.sql.exec("UPDATE connection_owners SET owner_id = $2, heartbeat_at = now() WHERE whatsapp_id = $1", [wa, dead]);
    await channels(b.ctx).stopAll();
    await channels(a.ctx).stopAll();
    await channels(a.ctx).startConnected();
    expect(await owner()).toBe(channels(a.ctx).ownerId);
    expect(channels(a.ctx).get(wa)).toBeDefined();

    // a live owner on another host keeps its lease until it expires
    await a.sql.exec("UPDATE connection_owners SET owner_id = $2, heartbeat_at = now() WHERE whatsapp_id = $1", [wa, elsewhere]);
    expect(await releaseGoneOwners(a.sql, channels(a.ctx).ownerId)).toBe(0);
    expect(await owner()).toBe(elsewhere);
  });
});
