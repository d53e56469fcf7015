import { afterAll, expect, it } from "vitest";
import pg from "pg";
import { pino } from "pino";
import { z } from "zod";
import { createTestDatabase, dropTestDatabase } from "../../test/helper.js";
import { Jobs } from "./jobs.js";

const log = pino({ level: "silent" });
const started: Jobs[] = [];
let databaseUrl = "";

afterAll(async () => {
  await Promise.all(started.map((j) => j.stop()));
  if (databaseUrl) await dropTestDatabase(databaseUrl);
});

/** Two web processes and a worker started together on a fresh database, as one compose file starts them. */
it("processes starting together on a fresh database each create the job queues without a deadlock", async () => {
  databaseUrl = await createTestDatabase();
  const processes = [false, false, true].map((runWorkers) => {
    const jobs = new Jobs(databaseUrl, runWorkers, log);
    for (let i = 0; i < 16; i++) {
      jobs.define({ name: `start-${i}`, schema: z.object({}), handler: async () => undefined, ...(i === 0 ? { cron: "0 3 * * *" } : {}) });
    }
    started.push(jobs);
    return jobs;
  });
  const results = await Promise.allSettled(processes.map((j) => j.start()));
  expect(results.map((r) => (r.status === "rejected" ? String((r.reason as Error).stack) : "started"))).toEqual(["started", "started", "started"]);
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const queues = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.queue WHERE name LIKE 'start-%'");
  const schedules = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.schedule WHERE name = 'start-0'");
  await c.end();
  expect(queues.rows[0]!.n).toBe(16);
  expect(schedules.rows[0]!.n).toBe(1);
});
