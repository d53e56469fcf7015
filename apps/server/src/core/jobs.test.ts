import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { z } from "zod";
import { createTestApp, type TestApp } from "../../test/helper.js";
import { Jobs } from "./jobs.js";
import { runContextMixin, runWithContext } from "./run-context.js";

let app: TestApp;
let jobs: Jobs;
const done: number[] = [];
let failures = 0;
/** What the jobs' logger wrote, one parsed JSON line each. */
const logged: { level: number; msg: string; job?: string; jobId?: string; reqId?: string; data?: unknown; err?: { message: string } }[] = [];
// the server's logger adds the running job's (and its request's) ids to every line, as in app.ts
const log = pino({ level: "info", mixin: runContextMixin }, { write: (line: string) => void logged.push(JSON.parse(line)) });
const traced: unknown[] = [];

beforeAll(async () => {
  app = await createTestApp();
  jobs = new Jobs(app.databaseUrl, true, log);
  jobs.define({
    name: "test-count",
    schema: z.object({ n: z.number() }),
    retryLimit: 2,
    handler: async ({ n }) => {
      if (n === 7 && failures++ === 0) throw new Error("first attempt fails");
      done.push(n);
    },
  });
  jobs.define({
    name: "test-doomed",
    schema: z.object({ n: z.number() }),
    retryLimit: 1,
    handler: async ({ n }) => {
      attempts.push(n);
      throw new Error("always fails");
    },
    onGiveUp: async ({ n }, err) => {
      gaveUp.push({ n, message: (err as Error).message });
    },
  });
  jobs.define({
    name: "test-traced",
    // strict: the request id the queue carries never reaches the job's own payload
    schema: z.object({ n: z.number() }).strict(),
    handler: async (payload) => {
      traced.push(payload);
      log.info({ n: payload.n }, "traced handler at work");
    },
  });
  await jobs.start();
});
const attempts: number[] = [];
const gaveUp: { n: number; message: string }[] = [];

afterAll(async () => {
  await jobs.stop();
  await app.close();
});

describe("jobs", () => {
  it("runs many jobs quickly and retries a failed one on its own", async () => {
    for (let n = 0; n < 60; n++) await jobs.send("test-count", { n });
    const deadline = Date.now() + 20_000;
    while (new Set(done).size < 60 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(new Set(done).size).toBe(60);
    expect(done.filter((n) => n === 7)).toHaveLength(1);
    expect(failures).toBeGreaterThanOrEqual(1);
  });

  it("logs a failed attempt with the job's name, id and payload", () => {
    const failure = logged.find((l) => l.job === "test-count" && l.err?.message === "first attempt fails");
    expect(failure).toMatchObject({ level: 50, data: { n: 7 } });
    expect(failure?.jobId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("tells the job's definition once when its last attempt fails, not before", async () => {
    await jobs.send("test-doomed", { n: 1 });
    const deadline = Date.now() + 30_000;
    while (gaveUp.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(gaveUp).toEqual([{ n: 1, message: "always fails" }]);
    expect(attempts).toEqual([1, 1]); // the first attempt and its one retry
  });

  it("refuses a payload that does not match the job's schema", async () => {
    await expect(jobs.send("test-count", { n: "x" } as unknown as { n: number })).rejects.toThrow();
  });

  it("carries the id of the request that queued a job into the job's log lines", async () => {
    await runWithContext({ reqId: "req-77" }, () => jobs.send("test-traced", { n: 5 }));
    await jobs.send("test-traced", { n: 6 });
    const deadline = Date.now() + 20_000;
    while (traced.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(traced).toEqual(expect.arrayContaining([{ n: 5 }, { n: 6 }]));
    const started = logged.filter((l) => l.msg === "job started" && l.job === "test-traced");
    expect(started).toEqual([expect.objectContaining({ level: 30, reqId: "req-77", jobId: expect.any(String) })]);
    const work = logged.filter((l) => l.msg === "traced handler at work");
    expect(work.find((l) => (l as { n?: number }).n === 5)).toMatchObject({ reqId: "req-77", job: "test-traced" });
    expect(work.find((l) => (l as { n?: number }).n === 6)).not.toHaveProperty("reqId");
  });
});
