import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded.js";
import type { StartupLog } from "./embedded-leftover.js";

const root = path.resolve(import.meta.dirname, "../../../..");
const dirs: string[] = [];
const started: EmbeddedDatabase[] = [];
const orphans: number[] = [];

afterAll(async () => {
  for (const db of started) await db.stop();
  // when a test failed before the recovery stopped it, the orphan would outlive the test run
  for (const pid of orphans) if (alive(pid)) process.kill(pid, "SIGINT");
  // temp directories of this test only; a failed removal leaves litter in /tmp, not a wrong result
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function recordingLog() {
  const lines: string[] = [];
  const log: StartupLog = { info: (_o, msg) => void lines.push(msg), warn: (_o, msg) => void lines.push(msg) };
  return { log, lines };
}

/** Runs the fixture that starts the embedded server, waits until it wrote its row, then kill -9s it. */
async function startAndKill(dataDir: string): Promise<number> {
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.resolve(import.meta.dirname, "../../test/fixtures/embedded-start.ts"), dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 60_000;
  while (!out.includes("READY") && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  expect(out).toContain("READY");
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  return Number.parseInt((await readFile(path.join(dataDir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]!, 10);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false; // the process is gone
    throw err;
  }
};

async function survivors(db: EmbeddedDatabase): Promise<string[]> {
  const client = new pg.Client({ connectionString: db.serverUrl("postgres") });
  await client.connect();
  try {
    return (await client.query<{ note: string }>("SELECT note FROM survivors")).rows.map((r) => r.note);
  } finally {
    await client.end();
  }
}

describe("embedded PostgreSQL restarts", () => {
  it("after kill -9 of the server, a new start stops the orphaned PostgreSQL and serves the same data", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-restart-"));
    dirs.push(dataDir);
    const orphan = await startAndKill(dataDir);
    orphans.push(orphan);
    expect(alive(orphan)).toBe(true); // the orphan: what used to make the next start fail with "undefined"

    const { log, lines } = recordingLog();
    const db = await startEmbeddedPostgres(dataDir, { log });
    started.push(db);
    expect(lines).toContain("an earlier embedded PostgreSQL still runs on the data directory (the server was killed); stopping it");
    expect(alive(orphan)).toBe(false);
    expect(await survivors(db)).toEqual(["written before kill -9"]);
  }, 120_000);

  it("a lock file naming a pid that is gone or is another program is removed", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-restart-"));
    dirs.push(dataDir);
    const first = await startEmbeddedPostgres(dataDir);
    await first.stop();
    const lockFile = path.join(dataDir, "pg", "postmaster.pid");
    // this test process stands for an unrelated program that got the old pid
    await writeFile(lockFile, `${process.pid}\n${path.join(dataDir, "pg")}\n1\n5432\n\n127.0.0.1\n 0 0\nready\n`);
    const { log, lines } = recordingLog();
    const db = await startEmbeddedPostgres(dataDir, { log });
    started.push(db);
    expect(lines).toEqual(["removed a stale PostgreSQL lock file (its pid now belongs to another program)"]);
    expect(existsSync(lockFile)).toBe(true); // the new server's own
  }, 120_000);

  it("a PostgreSQL that cannot start is explained in its own words, never as undefined", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-restart-"));
    dirs.push(dataDir);
    const first = await startEmbeddedPostgres(dataDir);
    await first.stop();
    await writeFile(path.join(dataDir, "pg", "PG_VERSION"), "9\n"); // a data directory of another major version
    await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(/did not start: .*Its last words: .*(incompatible|version)/);
  }, 120_000);
});
