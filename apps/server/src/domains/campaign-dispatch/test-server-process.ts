import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_SECRETS_KEYS } from "../../../test/factories.js";

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface DispatchServer {
  base: string;
  child: ChildProcess;
  /** kill -9: no shutdown hook runs, the leases stay until they expire. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The real server (src/main.ts) as a process of its own on an existing database, running the
 * campaign dispatcher: for the crash test and the bench, which kill it with SIGKILL mid-run.
 */
export async function startDispatchServer(o: { databaseUrl: string; dataDir: string; graphUrl: string; env?: Record<string, string> }): Promise<DispatchServer> {
  const port = await freePort();
  const child = spawn(path.join(serverRoot, "../../node_modules/.bin/tsx"), [path.join(serverRoot, "src/main.ts")], {
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
      ADMIN_EMAIL: "admin@dispatch.test",
      ADMIN_PASSWORD: "dispatch-admin-password",
      LOG_LEVEL: "warn",
      REDIS_URL: "",
      WHATSAPP_GRAPH_URL: o.graphUrl,
      ...o.env,
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: false,
  });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || i > 300) {
      await stop();
      throw new Error("the dispatch server did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    child,
    async kill9() {
      // tsx runs the server as its child: the node process below it is killed too
      await killTree(child.pid!);
      await exited;
    },
    stop,
  };
}

/** SIGKILL to a process and its descendants (tsx → node). */
async function killTree(pid: number): Promise<void> {
  const { execFileSync } = await import("node:child_process");
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch (err) {
    if ((err as { status?: number }).status !== 1) throw err; // 1 = no children
  }
  for (const c of children) await killTree(c);
  try {
    process.kill(pid, "SIGKILL");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}
