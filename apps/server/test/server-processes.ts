import { spawn, type ChildProcess } from "node:child_process";
import { ensureServerBuild } from "../../../scripts/build-server.mjs";
import { freePort } from "../src/db/embedded.js";
import { TEST_SECRETS_KEYS } from "./factories.js";

/**
 * Real server processes for the multi-process tests: the bundle `npm start` runs (plain node, the
 * production settings), each with its ROLE, on one database and one Redis this file starts itself.
 */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// the test's own Redis: one helper for every test and bench that starts one
export { hasRedisServer as redisServerInstalled, startRedisServer as startRedis } from "./redis-server.js";


/** Polls `check` every 50 ms until it gives a value, or fails naming `what` after `ms`. */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

export interface ServerProcess {
  name: string;
  role: "web" | "worker" | "all";
  base: string;
  pid: number;
  child: ChildProcess;
  /** The process's last output lines (up to 1000: warnings and errors at the default LOG_LEVEL), or those since `mark()`. */
  output(since?: number): string;
  /** How many lines the process has written so far: `output(mark)` is what it wrote after. */
  mark(): number;
  /** SIGTERM and wait for the exit (the graceful shutdown). */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown runs, nothing is released. */
  kill9(): Promise<void>;
}

export interface ServerOptions {
  name: string;
  role: "web" | "worker" | "all";
  databaseUrl: string;
  redisUrl: string;
  dataDir: string;
  env?: Record<string, string>;
}

/** Starts a server process and resolves once its /readyz answers 200. */
export async function startServer(o: ServerOptions): Promise<ServerProcess> {
  const bundle = await ensureServerBuild();
  const port = await freePort();
  const child = spawn(process.execPath, ["--enable-source-maps", bundle], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      ROLE: o.role,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
      DATA_DIR: o.dataDir,
      WEB_DIST: "/nonexistent",
      JWT_SECRET: "p".repeat(40),
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      ADMIN_EMAIL: "admin@processes.test",
      ADMIN_PASSWORD: "processes-admin-password",
      ENABLE_SANDBOX: "true",
      SHUTDOWN_DRAIN_SECONDS: "0",
      LOG_LEVEL: "warn",
      ...o.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let written = 0;
  // a line may arrive in two chunks: the unfinished end of each stream waits for the rest
  const keep = () => {
    let rest = "";
    return (d: Buffer) => {
      const parts = (rest + d.toString()).split("\n");
      rest = parts.pop()!;
      for (const l of parts) {
        if (!l.trim()) continue;
        lines.push(`[${o.name}] ${l}`);
        written++;
      }
      if (lines.length > 1000) lines.splice(0, lines.length - 1000);
    };
  };
  child.stdout!.on("data", keep());
  child.stderr!.on("data", keep());
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const base = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    name: o.name,
    role: o.role,
    base,
    pid: child.pid!,
    child,
    output: (since = 0) => lines.slice(Math.max(0, since - (written - lines.length))).join("\n"),
    mark: () => written,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      return exited;
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    if (child.exitCode !== null || i > 300) {
      await server.kill9();
      throw new Error(`server ${o.name} did not start:\n${server.output()}`);
    }
    await sleep(100);
  }
}
