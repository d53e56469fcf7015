import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { z } from "zod";
import { createTestApp, type TestApp } from "../../test/helper.js";
import { Jobs } from "./jobs.js";

let app: TestApp;
let jobs: Jobs;
const done: number[] = [];
let failures = 0;
/** What the jobs' logger wrote, one parsed JSON line each. */
const logged: { level: number; msg: string; job?: string; jobId?: string; data?: unknown; err?: { message: string } }[] = [];
const log = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line)) });

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
});
