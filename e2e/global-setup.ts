import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDatabase, freePort, startEmbeddedPostgres, tmpDataDir } from "../apps/server/src/db/embedded.js";
import { fakePhone, fakeTemplate } from "../apps/server/test/fake-graph/builders.js";
import { FakeGraph } from "../apps/server/test/fake-graph/server.js";
import { ensureServerBuild } from "../scripts/build-server.mjs";
import { E2E_ADMIN, E2E_GRAPH } from "./support/constants.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Builds the web app, starts a throw-away PostgreSQL (embedded, or TEST_DATABASE_SERVER_URL) and one
 * server process on a free port; tests read E2E_BASE_URL and E2E_DATABASE_URL.
 */
export default async function globalSetup() {
  const dataDir = tmpDataDir("e2e");
  // Each run builds into its own folder, so parallel runs never overwrite each other's build.
  let webDist = path.join(root, "apps/web/dist");
  if (!process.env.E2E_SKIP_BUILD) {
    webDist = path.join(dataDir, "web");
    const b = spawnSync("npm", ["run", "build", "-w", "apps/web", "--", "--outDir", webDist, "--emptyOutDir", "--logLevel", "warn"], {
      cwd: root,
      stdio: "inherit",
    });
    if (b.status !== 0) throw new Error("web build failed");
  }
  let databaseUrl: string;
  let stopDb: () => Promise<void> = async () => undefined;
  const external = process.env.TEST_DATABASE_SERVER_URL;
  const dbName = `atende_e2e_${process.pid}`;
  if (external) {
    const u = new URL(external);
    await ensureDatabase(u.toString(), dbName);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  } else {
    const pg = await startEmbeddedPostgres(dataDir, { persistent: false });
    await ensureDatabase(pg.serverUrl("postgres"), dbName);
    databaseUrl = pg.serverUrl(dbName);
    stopDb = () => pg.stop();
  }
  // Meta's Graph API for the official-number screens: a local server speaking its documented protocol
  const graph = await FakeGraph.start({ accessToken: E2E_GRAPH.accessToken, appSecret: E2E_GRAPH.appSecret, wabaId: E2E_GRAPH.wabaId });
  graph.phones = [fakePhone({ id: E2E_GRAPH.phoneNumberId, digits: E2E_GRAPH.phoneDigits })];
  graph.templates = E2E_GRAPH.templates.map((t) => fakeTemplate(t.name, t));
  const port = await freePort();
  // the server as `npm start` runs it: the bundle of scripts/build-server.mjs under plain node
  const bundle = await ensureServerBuild();
  const server: ChildProcess = spawn(process.execPath, ["--enable-source-maps", bundle], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: "warn",
      REDIS_URL: "",
      WHATSAPP_GRAPH_URL: graph.host,
      // the bots and AI servers browser tests start on loopback (e2e/queue-integration/bot-conversation.spec.ts)
      OUTBOUND_ALLOWED_HOSTS: "127.0.0.1",
      // the address e-mail links (tracking pixel, clicks, unsubscribe, sender confirmation) point to
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let lastError: unknown;
  for (;;) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) break;
    } catch (err) {
      // connection refused while the server starts: polled again until the deadline, whose error names it
      lastError = err;
    }
    if (server.exitCode !== null) throw new Error("server exited during start");
    if (Date.now() > deadline) throw new Error(`server did not start (last health check: ${String(lastError ?? "not ok")})`);
    await new Promise((r) => setTimeout(r, 300));
  }
  process.env.E2E_BASE_URL = base;
  process.env.E2E_DATABASE_URL = databaseUrl;
  return async () => {
    server.kill("SIGTERM");
    await graph.close();
    await new Promise((r) => setTimeout(r, 500));
    // teardown is best effort: reported, never failing the run
    await stopDb().catch((err: unknown) => console.warn("e2e teardown: could not stop the test database", err));
    await rm(dataDir, { recursive: true, force: true }).catch((err: unknown) => console.warn("e2e teardown: could not remove the data directory", err));
  };
}
