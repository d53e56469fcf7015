import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initAuthCreds } from "baileys";
import { buildTenant, createTestApp, type TestApp } from "../../test/helper.js";
import { claimQueued, deliverQueued } from "../domains/messages/send-message.js";
import { channels } from "./manager.js";
import { connectedSandbox, inbound } from "./testing.js";
import { usePgAuthState } from "./baileys/auth-state.js";
import type { DriverEvents, InboundMessage } from "./driver.js";
import { claimLease, fenced, LeaseLostError, type LeaseFence } from "./ownership.js";
import { SandboxDriver } from "./sandbox-driver.js";

/**
 * Lease fencing, driven explicitly: an "old owner" holds a connection's lease and a driver started
 * under it; a "new owner" takes the lease over (as after a pause or a partition: the old one does not
 * know yet). Everything the old driver then writes on the connection's state is refused, while the
 * new owner's writes go through. No timers: each step is a call the test makes.
 */
let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let wa: number;
const OLD = "old-host:1111:0ld00001";
const NEW = "new-host:2222:ne000002";

/** The events a driver reports, kept for the assertions (no channel manager: the test is the manager). */
function recorder() {
  const seen: string[] = [];
  const events: DriverEvents = {
    qr: () => void seen.push("qr"),
    status: (s) => void seen.push(s),
    message: async (m: InboundMessage) => seen.push(`message:${m.body}`),
    ack: (id, ack) => void seen.push(`ack:${ack}`),
  };
  return { seen, events };
}
const phone = async (body: string) =>
  (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_messages WHERE whatsapp_id = $1 AND body = $2", [wa, body])).n;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  // a connection nobody runs (never started: no process's manager touches it)
  const res = await app.api("POST", "/api/whatsapp", { token: t.admin.token, body: { name: "Fenced", provider: "sandbox", queueIds: [] } });
  wa = res.json().id as number;
  await app.api("DELETE", `/api/whatsappsession/${wa}`, { token: t.admin.token });
  await app.sql.exec("DELETE FROM connection_owners WHERE whatsapp_id = $1", [wa]);
});
afterAll(async () => {
  await app.close();
});

describe("a former lease holder writes nothing after a takeover", () => {
  let oldFence: LeaseFence;
  let newFence: LeaseFence;
  let oldDriver: SandboxDriver;

  it("epochs only grow: a takeover (or a restart by the holder) gets a new one, a renewal keeps it", async () => {
    oldFence = (await claimLease(app.sql, wa, OLD, true))!;
    expect(oldFence.whatsappId).toBe(wa);
    // the holder's own resume keeps the epoch; another process cannot take a live lease without takeOver
    expect(await claimLease(app.sql, wa, OLD, false)).toEqual(oldFence);
    expect(await claimLease(app.sql, wa, NEW, false)).toBeNull();
    const { events } = recorder();
    oldDriver = new SandboxDriver(app.ctx, t.companyId, wa, events, true, oldFence);
    await oldDriver.connect();
    await oldDriver.sendText("5531900000001", "antes da troca");
    expect(await phone("antes da troca")).toBe(1);

    newFence = (await claimLease(app.sql, wa, NEW, true))!;
    expect(newFence.epoch).toBeGreaterThan(oldFence.epoch);
  });

  it("the old driver's sends, receipts, deletions and read marks are refused; the new driver's go through", async () => {
    await expect(oldDriver.sendText("5531900000001", "depois da troca (antigo)")).rejects.toBeInstanceOf(LeaseLostError);
    expect(await phone("depois da troca (antigo)")).toBe(0);
    await expect(oldDriver.receive({ number: "5531900000001", name: "Cliente", body: "entrada no antigo" })).rejects.toBeInstanceOf(LeaseLostError);
    expect(await phone("entrada no antigo")).toBe(0);
    const providerId = (await app.sql.one<{ provider_id: string }>("SELECT provider_id FROM sandbox_messages WHERE whatsapp_id = $1 AND body = 'antes da troca'", [wa]))
      .provider_id;
    await oldDriver.deleteMessage("5531900000001", providerId);
    expect((await app.sql.one<{ is_deleted: boolean }>("SELECT is_deleted FROM sandbox_messages WHERE provider_id = $1", [providerId])).is_deleted).toBe(false);
    expect(await oldDriver.phoneRead("5531900000001")).toBe(0);

    const { seen, events } = recorder();
    const newDriver = new SandboxDriver(app.ctx, t.companyId, wa, events, true, newFence);
    await newDriver.connect();
    await newDriver.sendText("5531900000001", "depois da troca (novo)");
    expect(await phone("depois da troca (novo)")).toBe(1);
    expect(await newDriver.phoneRead("5531900000001")).toBe(2);
    expect(seen).toContain("ack:4");
    await newDriver.stop();
    await oldDriver.stop();
  });

  it("the outbox: only the current holder claims queued messages", async () => {
    const { ticketId, contactId } = await (async () => {
      const c = await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Cliente', '5531900000002') RETURNING id", [t.companyId]);
      const tk = await app.sql.one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, whatsapp_id, status) VALUES ($1, $2, $3, 'open') RETURNING id", [
        t.companyId,
        c.id,
        wa,
      ]);
      return { ticketId: tk.id, contactId: c.id };
    })();
    await app.sql.exec(
      `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, ack, read, send_status) VALUES ($1, $2, $3, $4, 'na fila', true, 0, true, 'queued')`,
      [t.companyId, ticketId, contactId, wa],
    );
    expect(await claimQueued(app.sql, oldFence, 10)).toEqual([]);
    const claimed = await claimQueued(app.sql, newFence, 10);
    expect(claimed).toHaveLength(1);
  });

  it("the device's keys (Baileys auth state) are written only under the current lease", async () => {
    const stale = await usePgAuthState(app.sql, app.ctx.secrets, t.companyId, wa, oldFence);
    await expect(stale.state.keys.set({ "pre-key": { "1": { public: Buffer.alloc(32, 1), private: Buffer.alloc(32, 2) } } })).rejects.toBeInstanceOf(LeaseLostError);
    await expect(stale.saveCreds()).rejects.toBeInstanceOf(LeaseLostError);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM baileys_auth WHERE whatsapp_id = $1", [wa])).n).toBe(0);

    const current = await usePgAuthState(app.sql, app.ctx.secrets, t.companyId, wa, newFence);
    await current.state.keys.set({ "pre-key": { "1": { public: Buffer.alloc(32, 1), private: Buffer.alloc(32, 2) } } });
    Object.assign(current.state.creds, initAuthCreds());
    await current.saveCreds();
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM baileys_auth WHERE whatsapp_id = $1", [wa])).n).toBe(2);
  });

  it("a write in flight holds the takeover back until it commits; after the takeover the same write is refused", async () => {
    let takeover: Promise<LeaseFence | null> | undefined;
    await fenced(app.sql, newFence, async (tx) => {
      // another process takes the lease over while this transaction holds the fence (FOR SHARE)
      takeover = claimLease(app.sql, wa, OLD, true);
      for (let i = 0; ; i++) {
        const waiting = await app.sql.maybe(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO connection_owners%'",
        );
        if (waiting) break;
        if (i > 500) throw new Error("the takeover never waited for the fenced write");
        await new Promise((r) => setTimeout(r, 10));
      }
      await tx.exec("UPDATE whatsapps SET status = 'CONNECTED' WHERE id = $1", [wa]);
    });
    const third = (await takeover)!;
    expect(third.epoch).toBeGreaterThan(newFence.epoch);
    await expect(fenced(app.sql, newFence, (tx) => tx.exec("UPDATE whatsapps SET status = 'DISCONNECTED' WHERE id = $1", [wa]))).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect((await app.sql.one<{ status: string }>("SELECT status FROM whatsapps WHERE id = $1", [wa])).status).toBe("CONNECTED");
    await app.sql.exec("UPDATE whatsapps SET status = 'DISCONNECTED' WHERE id = $1", [wa]);
  });
});

describe("the channel manager's driver after a takeover it has not noticed yet", () => {
  it("its session status reports are dropped and a message it was about to send goes back to the outbox", async () => {
    const wa2 = await connectedSandbox(app, t.admin.token);
    const { ticketId } = await inbound(app, t.admin.token, wa2, { number: "5531900000009" });
    const driver = channels(app.ctx).get(wa2) as SandboxDriver;
    const taken = (await claimLease(app.sql, wa2, NEW, true))!;
    expect(taken.epoch).toBeGreaterThan(driver.fence!.epoch);
    // what the new holder wrote stays: the old driver's late "CONNECTED" is not written over it
    await app.sql.exec("UPDATE whatsapps SET status = 'OPENING' WHERE id = $1", [wa2]);
    await driver.scan();
    expect((await app.sql.one<{ status: string }>("SELECT status FROM whatsapps WHERE id = $1", [wa2])).status).toBe("OPENING");

    // a message the old holder had claimed: not sent, handed back to the outbox for the new holder
    const m = await app.sql.one<{ id: number }>(
      `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, ack, read, send_status)
       SELECT company_id, id, contact_id, whatsapp_id, 'reclamada pelo antigo', true, 0, true, 'sending' FROM tickets WHERE id = $1 RETURNING id`,
      [ticketId],
    );
    await deliverQueued(app.ctx, driver, t.companyId, m.id);
    expect((await app.sql.one<{ send_status: string }>("SELECT send_status FROM messages WHERE id = $1", [m.id])).send_status).toBe("queued");
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_messages WHERE body = 'reclamada pelo antigo'")).n).toBe(0);
  });
});
