import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../../test/helper.js";
import { Jobs } from "./jobs.js";

let app: TestApp;
let jobs: Jobs;
const done: number[] = [];
let failures = 0;

beforeAll(async () => {
  app = await createTestApp();
  jobs = new Jobs(app.databaseUrl, true);
  jobs.define({
    name: "test-count",
    schema: z.object({ n: z.number() }),
    retryLimit: 2,
    handler: async ({ n }) => {
      if (n === 7 && failures++ === 0) throw new Error("first attempt fails");
      done.push(n);
    },
  });
  await jobs.start();
});

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

  it("refuses a payload that does not match the job's schema", async () => {
    await expect(jobs.send("test-count", { n: "x" } as unknown as { n: number })).rejects.toThrow();
  });
});
