import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../../app.js";
import { createPool } from "../../db/sql.js";
import { runSendRetry } from "../../domains/messages/send-retry-job.js";
import { SEND_RETRY_JOB } from "../../domains/messages/send-retry.js";
import { dueJobsSettled } from "../../../test/wait.js";
import type { TestApp } from "../../../test/helper.js";
import { GRAPH_ERRORS } from "../../../test/fake-graph/errors.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, officialTenant, waitFor, webhooksSettled, type OfficialTenant } from "../../../test/fake-graph/setup.js";
import { channels } from "../manager.js";

/** A second server process on the same database (as after a restart, or a second replica). */
async function startProcess(a: TestApp): Promise<BuiltApp & { end(): Promise<void> }> {
  const pool = createPool(a.databaseUrl, 5);
  const b = await buildApp({ ...a.ctx.config }, pool, a.databaseUrl);
  await b.start();
  await b.app.ready();
  return {
    ...b,
    end: async () => {
      await channels(b.ctx).stopAll();
      await b.close();
      await pool.end();
    },
  };
}

/** Stops a process (drivers, server, job workers) without dropping its database. */
async function stopProcess(a: BuiltApp): Promise<void> {
  await channels(a.ctx).stopAll();
  await a.ctx.realtime.close();
  await a.app.close();
  await a.ctx.jobs.stop();
}

async function customerWrites(app: TestApp, fake: FakeGraph, base: string, t: OfficialTenant, from: string, o: { ageSeconds?: number } = {}): Promise<number> {
  const phone = { id: t.numbers[0]!.phoneNumberId, display_phone_number: t.numbers[0]!.displayPhoneNumber };
  const message = P.text(from, "Oi", { timestamp: P.nowTs(-(o.ageSeconds ?? 0)) });
  const payload = P.webhook(fake.wabaId, [[P.messagesChange(phone, { contacts: [{ wa_id: from, name: "Cliente" }], messages: [message] })]]);
  expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${t.businessId}`, payload)).status).toBe(200);
  await webhooksSettled(app, t.businessId);
  const ticket = await app.sql.one<{ id: number }>(
    "SELECT t.id FROM tickets t JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id WHERE t.company_id = $1 AND c.number = $2 AND t.status <> 'closed'",
    [t.companyId, from],
  );
  expect((await app.api("PUT", `/api/tickets/${ticket.id}`, { token: t.admin.token, body: { status: "open", userId: t.admin.id } })).statusCode).toBe(200);
  return ticket.id;
}

const statusOf = (app: TestApp, id: number) =>
  app.sql.one<{ send_status: string; send_attempts: number; provider_id: string | null }>("SELECT send_status, send_attempts, provider_id FROM messages WHERE id = $1", [id]);

describe("a message waiting for another attempt survives a restart", () => {
  it("the new process sends it once", async () => {
    const fake = await FakeGraph.start();
    // the pair rate limit waits at least 3 × 1 s: time enough to stop the first process
    const a = await createOfficialTestApp(fake, { sendRetryBaseMs: 1000 });
    let b: Awaited<ReturnType<typeof startProcess>> | null = null;
    try {
      const base = await a.listen();
      const t = await officialTenant(a, fake, ["5511922240001"]);
      const c = "5511955550001";
      const ticketId = await customerWrites(a, fake, base, t, c);
      fake.failNext(c, 1, GRAPH_ERRORS.pairRateLimit);
      const res = await a.api("POST", `/api/messages/${ticketId}`, { token: t.admin.token, body: { body: "Depois do reinício", sign: false } });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().messages[0].id as number;
      expect((await statusOf(a, id)).send_status).toBe("retrying");
      await stopProcess(a);

      b = await startProcess(a);
      // the new process's start-up sweep leaves the waiting message alone
      expect((await statusOf(a, id)).send_status).toBe("retrying");
      const done = await waitFor(async () => {
        const r = await statusOf(a, id);
        return r.send_status === "sent" ? r : null;
      }, 20_000, "sent after the restart");
      expect(done).toMatchObject({ send_status: "sent", send_attempts: 2 });
      expect(fake.messagesTo(c)).toHaveLength(1);
      expect(done.provider_id).toBe(fake.messagesTo(c)[0]!.messageId);
    } finally {
      await b?.end();
      // teardown only: a leftover test database is dropped by the global teardown
      await a.close().catch((err: unknown) => console.warn("teardown: closing the first process failed", err));
      await fake.close();
    }
  });
});

describe("two processes", () => {
  let fake: FakeGraph;
  let a: TestApp;
  let b: BuiltApp;
  let base: string;
  let t: OfficialTenant;
  beforeAll(async () => {
    fake = await FakeGraph.start();
    // long waits: the attempts below are run by hand, the queued job finds them done
    a = await createOfficialTestApp(fake, { sendRetryBaseMs: 600_000 });
    base = await a.listen();
    t = await officialTenant(a, fake, ["5511922250001"]); // A runs the connection
    b = await buildApp({ ...a.ctx.config }, a.pool, a.databaseUrl);
    await b.start();
    await b.app.ready();
  });
  afterAll(async () => {
    await channels(b.ctx).stopAll();
    await b.close();
    await a.close();
    await fake.close();
  });
  const onB = (url: string, body: unknown) => b.app.inject({ method: "POST", url, payload: body as object, headers: { authorization: `Bearer ${t.admin.token}` } });

  it("do not send a waiting message twice when both run its attempt", async () => {
    const c = "5511955550002";
    const ticketId = await customerWrites(a, fake, base, t, c);
    fake.failNext(c, 1, GRAPH_ERRORS.rateLimit);
    const res = await a.api("POST", `/api/messages/${ticketId}`, { token: t.admin.token, body: { body: "Uma vez só", sign: false } });
    expect(res.statusCode).toBe(200);
    const id = res.json().messages[0].id as number;
    expect(await statusOf(a, id)).toMatchObject({ send_status: "retrying", send_attempts: 1 });

    const payload = { companyId: t.companyId, messageId: id, attempt: 1 };
    const outcomes = await Promise.all([runSendRetry(a.ctx, payload), runSendRetry(b.ctx, payload), runSendRetry(a.ctx, payload)]);
    expect(outcomes.filter((o) => o === "skipped")).toHaveLength(2);
    expect(outcomes.filter((o) => o === "sent" || o === "queued")).toHaveLength(1);
    await waitFor(async () => (await statusOf(a, id)).send_status === "sent", 10_000, "sent");
    // the retry jobs due by now (the queued one, any the winner queued) have run
    await dueJobsSettled(a.sql, SEND_RETRY_JOB, { messageId: id }, 0);
    expect(fake.messagesTo(c)).toHaveLength(1);
    expect(await statusOf(a, id)).toMatchObject({ send_status: "sent", send_attempts: 2 });
  });

  it("a send through the outbox gets the Cloud API checks before anything is stored", async () => {
    const c = "5511955550003";
    const ticketId = await customerWrites(a, fake, base, t, c);
    const rows = async () => (await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me", [ticketId])).n;
    const long = await onB(`/api/messages/${ticketId}`, { body: "a".repeat(4097), sign: false });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe("ERR_WAPP_TEXT_TOO_LONG");
    expect(await rows()).toBe(0);

    const late = "5511955550004";
    const lateTicket = await customerWrites(a, fake, base, t, late, { ageSeconds: 25 * 3600 });
    const closed = await onB(`/api/messages/${lateTicket}`, { body: "Ainda precisa?", sign: false });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().error).toBe("ERR_WPP_OFFICIAL_SESSION_EXPIRED");
    expect((await a.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me", [lateTicket])).n).toBe(0);

    // within the limits and the window it goes out through A
    const ok = await onB(`/api/messages/${ticketId}`, { body: "Pelo outro processo", sign: false });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(fake.messagesTo(c).map((s) => (s.body.text as { body: string }).body)).toEqual(["Pelo outro processo"]);
    expect(fake.messagesTo(late)).toEqual([]);
  });
});
