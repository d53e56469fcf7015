import { spawn } from "node:child_process";
import { freePort } from "../apps/server/src/db/embedded.js";
import { ensureServerBuild } from "../scripts/build-server.mjs";
import { TEST_SECRETS_KEYS } from "../apps/server/test/factories.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The benchmarks measure capacity: the per-company and per-token request limits (RATE_LIMIT_*, on by
 * default) would answer their floods 429. bench/noisy-tenant.ts sets its own.
 */
export const BENCH_NO_REQUEST_LIMITS = {
  RATE_LIMIT_COMPANY_PER_MINUTE: "0",
  RATE_LIMIT_TOKEN_PER_MINUTE: "0",
  RATE_LIMIT_EXTERNAL_COMPANY_PER_MINUTE: "0",
  RATE_LIMIT_EXTERNAL_TOKEN_PER_MINUTE: "0",
};

export interface ServerProcess {
  base: string;
  /** The server's process id, for reading its memory. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The real server as a process of its own (the bundle `npm start` runs, production settings), so a
 * benchmark's client never shares its event loop or memory. Resolves once /api/health answers.
 */
export async function startServerProcess(o: { databaseUrl: string; dataDir: string; env?: Record<string, string> }): Promise<ServerProcess> {
  // a PORT of the caller's (a server whose PUBLIC_URL must name its own address) is kept
  const port = o.env?.PORT ? Number(o.env.PORT) : await freePort();
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server alone
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, await ensureServerBuild()], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: o.databaseUrl,
      DATA_DIR: o.dataDir,
      WEB_DIST: "/nonexistent",
      JWT_SECRET: "s".repeat(40),
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      ADMIN_EMAIL: "admin@bench.local",
      ADMIN_PASSWORD: "bench-admin-password",
      LOG_LEVEL: "warn",
      REDIS_URL: "",
      ...BENCH_NO_REQUEST_LIMITS,
      ...o.env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    // a process already gone (exited, or killed by a signal: its exitCode stays null) has no exit left to wait for
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  };
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || i > 300) {
      await stop();
      throw new Error("the server did not start");
    }
    await sleep(200);
  }
  return { base, pid: child.pid!, stop };
}
