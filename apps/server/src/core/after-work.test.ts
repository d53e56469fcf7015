import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helper.js";
import { afterCommit, afterResponse } from "./after-work.js";
import { registerRunContext } from "./run-context.js";

/**
 * Real-time emits and other after-work wait for their transaction's COMMIT (dropped on ROLLBACK) and
 * for their request's answer, so the answer never waits for a broadcast and nobody hears of a change
 * that did not happen or is not yet visible.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe("after commit", () => {
  it("holds work until the transaction commits; what it then reads is committed", async () => {
    await app.sql.exec("CREATE TABLE IF NOT EXISTS after_work_probe (v int)");
    const seen: number[] = [];
    await app.sql.tx(async (tx) => {
      await tx.exec("INSERT INTO after_work_probe VALUES (1)");
      afterCommit(() => {
        void app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM after_work_probe").then((r) => seen.push(r.n));
      });
      // a nested transaction shares the outer one: its work waits for the outer commit too
      await tx.tx(async () => afterCommit(() => seen.push(-1)));
      expect(seen).toEqual([]);
    });
    await expect.poll(() => seen).toEqual([-1, 1]);
  });

  it("drops the work of a transaction that rolls back", async () => {
    const ran: string[] = [];
    await expect(
      app.sql.tx(async () => {
        afterCommit(() => ran.push("emit"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    afterCommit(() => ran.push("outside"));
    expect(ran).toEqual(["outside"]);
  });
});

describe("after the response", () => {
  const server = Fastify();
  registerRunContext(server);
  const events: string[] = [];
  server.get("/work", async () => {
    afterResponse(() => events.push("emitted"));
    await app.sql.tx(async () => afterCommit(() => events.push("committed")));
    // work the request started and that goes on after the answer is not held once it is sent
    setTimeout(() => afterResponse(() => events.push("later")), 50);
    expect(events).toEqual([]);
    return { ok: true };
  });
  server.get("/fails", async () => {
    afterResponse(() => events.push("emitted before the error"));
    throw new Error("boom");
  });
  let base = "";
  beforeAll(async () => {
    await server.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await server.close();
  });

  it("runs the request's held work once the answer is sent, in order, and later work at once", async () => {
    events.length = 0;
    const res = await fetch(`${base}/work`);
    expect(await res.json()).toEqual({ ok: true });
    await expect.poll(() => events).toEqual(["emitted", "committed", "later"]);
  });

  it("runs it after an error answer too (what committed before the error is announced)", async () => {
    events.length = 0;
    const res = await fetch(`${base}/fails`);
    expect(res.status).toBe(500);
    await expect.poll(() => events).toEqual(["emitted before the error"]);
  });
});
