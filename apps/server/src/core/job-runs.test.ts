import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { pino } from "pino";
import { z } from "zod";
import { createTestDatabase, dropTestDatabase } from "../../test/helper.js";
import { Jobs } from "./jobs.js";
import { waitFor } from "../../test/wait.js";

const root = path.resolve(import.meta.dirname, "../..");
const log = pino({ level: "silent" });
const times = { heartbeatMs: 200, staleMs: 1_000 };
let databaseUrl = "";
let db: pg.Client;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});

afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
  await db.end();
  await dropTestDatabase(databaseUrl);
});

/** A worker process (test/fixtures/stalling-worker.ts) that takes the job and is killed with SIGKILL while running it. */
async function killedMidJob(retryLimit: number): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(root, "test/fixtures/stalling-worker.ts")], {
    cwd: root,
    env: { ...process.env, STALL_DATABASE_URL: databaseUrl, STALL_RETRY_LIMIT: String(retryLimit) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanup.push(async () => child.exitCode === null && child.kill("SIGKILL"));
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  await until("the worker process ready", () => out.includes("ready"), 30_000);
  const sender = new Jobs(databaseUrl, false, log);
  defineStallTest(sender, retryLimit, async () => undefined);
  await sender.start();
  await sender.send(queueOf(retryLimit), { n: retryLimit });
  await until("the job running in the worker process", () => out.includes(`running ${retryLimit}`), 15_000);
  await sender.stop();
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
}

function defineStallTest(jobs: Jobs, retryLimit: number, handler: (n: number) => Promise<void>, onGiveUp?: (n: number, err: unknown) => Promise<void>) {
  jobs.define({
    name: queueOf(retryLimit),
    schema: z.object({ n: z.number() }),
    retryLimit,
    handler: ({ n }) => handler(n),
    ...(onGiveUp ? { onGiveUp: ({ n }: { n: number }, err: unknown) => onGiveUp(n, err) } : {}),
  });
}

/** Each test its own queue: a queue keeps the retry limit it was created with. */
const queueOf = (retryLimit: number) => `stall-test-${retryLimit}`;

const until = (what: string, check: () => boolean | Promise<boolean>, ms: number) => waitFor(check, ms, what, 50);

it("a job whose process was killed mid-run is handed back and run by another worker within seconds, once", { timeout: 60_000 }, async () => {
  await killedMidJob(2);
  const killedAt = Date.now();
  const ran: number[] = [];
  const worker = new Jobs(databaseUrl, true, log, times);
  cleanup.push(() => worker.stop());
  defineStallTest(worker, 2, async (n) => void ran.push(n));
  await worker.start();
  await until("the job run again", () => ran.length > 0, 15_000);
  const afterMs = Date.now() - killedAt;
  // stale after 1 s without a heartbeat, found at the next 200 ms check, retried after pg-boss's backoff and its 1 s poll
  expect(afterMs).toBeLessThan(10_000);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(ran).toEqual([2]);
  const { rows } = await db.query("SELECT state, retry_count, output FROM pgboss.job WHERE name = 'stall-test-2'");
  expect(rows).toEqual([expect.objectContaining({ state: "completed", retry_count: 1 })]);
  expect((await db.query("SELECT count(*)::int AS n FROM job_runs")).rows[0].n).toBe(0);
  await worker.stop(); // the next test's worker process must be the one taking its job
});

it("on its last attempt the job is failed for good and its onGiveUp runs", { timeout: 60_000 }, async () => {
  await killedMidJob(0);
  const gaveUp: { n: number; message: string }[] = [];
  const ran: number[] = [];
  const worker = new Jobs(databaseUrl, true, log, times);
  cleanup.push(() => worker.stop());
  defineStallTest(worker, 0, async (n) => void ran.push(n), async (n, err) => void gaveUp.push({ n, message: (err as Error).message }));
  await worker.start();
  await until("onGiveUp", () => gaveUp.length > 0, 15_000);
  expect(gaveUp).toEqual([{ n: 0, message: expect.stringMatching(/^the process running it \(.+\) stopped$/) }]);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(ran).toEqual([]);
  const { rows } = await db.query("SELECT state FROM pgboss.job WHERE name = 'stall-test-0'");
  expect(rows).toEqual([{ state: "failed" }]);
});

it("a stalled job that cannot be handed back is put back for the next check, not dropped", { timeout: 30_000 }, async () => {
  // no queue name (pg-boss refuses to look the job up): every hand-back attempt fails, as when the database does not answer
  const jobId = "00000000-0000-4000-8000-000000000001";
  await db.query("INSERT INTO job_runs (job_id, queue, instance, heartbeat_at) VALUES ($1, '', 'gone:1:x', 'epoch')", [jobId]);
  const logged: { msg: string; jobId?: string }[] = [];
  const errors = pino({ level: "error" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  const worker = new Jobs(databaseUrl, true, errors, times);
  cleanup.push(() => worker.stop());
  await worker.start();
  await until("two failed hand-backs", () => logged.filter((l) => l.jobId === jobId).length >= 2, 10_000);
  expect(logged.find((l) => l.jobId === jobId)?.msg).toBe("could not hand back a job left by a stopped process; tried again at the next check");
  await worker.stop();
  expect((await db.query("SELECT instance FROM job_runs WHERE job_id = $1", [jobId])).rows).toEqual([{ instance: "gone:1:x" }]);
});
