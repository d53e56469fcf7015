import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildServer } from "../../../scripts/build-server.mjs";

/**
 * Production runs the server as one esbuild bundle under plain `node` (scripts/build-server.mjs), with
 * `--enable-source-maps` (scripts/start.mjs, the Dockerfile): an error's stack must name the TypeScript
 * file and line, not the bundle's. This builds the real bundle into a scratch folder, starts it on an
 * empty database with one broken migration beside it, and reads the stack it prints.
 */
const server = path.resolve(import.meta.dirname, "..");
const root = path.resolve(server, "../..");
// under apps/server, so the bundle's npm imports resolve from node_modules (.tmp/ is git-ignored)
const scratch = path.join(server, ".tmp", `build-${randomBytes(4).toString("hex")}`);
const bundle = path.join(scratch, "dist", "main.js");
const dbName = `atende_t_${process.pid}_${randomBytes(4).toString("hex")}`;
let admin: pg.Client;
let databaseUrl: string;

beforeAll(async () => {
  await buildServer(bundle);
  // what the bundle reads beside its folder: its version (../package.json) and the migrations (../migrations)
  copyFileSync(path.join(server, "package.json"), path.join(scratch, "package.json"));
  mkdirSync(path.join(scratch, "migrations"));
  writeFileSync(path.join(scratch, "migrations", "0001_broken.sql"), "THIS IS NOT SQL;\n");
  admin = new pg.Client({ connectionString: inject("dbServerUrl") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(inject("dbServerUrl"));
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}, 120_000);

afterAll(async () => {
  await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin?.end();
  rmSync(scratch, { recursive: true, force: true });
});

function run(nodeArgs: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, bundle], {
      cwd: scratch,
      env: { PATH: process.env.PATH, NODE_ENV: "development", DATABASE_URL: databaseUrl, DATA_DIR: path.join(scratch, "data"), LOG_LEVEL: "silent", PORT: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** The line of migrate.ts that throws a failed migration's error (read from the source, so an edit above it does not break this). */
function throwLine(): number {
  const lines = readFileSync(path.join(server, "src/db/migrate.ts"), "utf8").split("\n");
  const i = lines.findIndex((l) => l.includes("throw new Error(`Migration"));
  expect(i, "migrate.ts throws a failed migration's error").toBeGreaterThanOrEqual(0);
  return i + 1;
}

describe("production build", () => {
  it("the bundle and its source map are written", () => {
    expect(existsSync(bundle)).toBe(true);
    const map = JSON.parse(readFileSync(`${bundle}.map`, "utf8")) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith("src/db/migrate.ts"))).toBe(true);
    expect(readFileSync(bundle, "utf8")).toMatch(/\/\/# sourceMappingURL=main\.js\.map\s*$/);
  });

  it.each([
    ["campaign-analysis-worker", "src/domains/campaigns/read-recipients.ts"],
    ["sms-analysis-worker", "src/domains/sms-campaigns/read-rows.ts"],
    ["email-analysis-worker", "src/domains/email-campaigns/read-recipients.ts"],
    ["contacts-import-worker", "src/domains/contacts-import/importer.ts"],
  ])("the worker thread %s is a bundle of its own beside it, with its map, loading only what its work needs", (name, source) => {
    // core/worker-thread.ts starts the file of this name beside the running bundle
    const worker = path.join(scratch, "dist", `${name}.js`);
    const map = JSON.parse(readFileSync(`${worker}.map`, "utf8")) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith(source))).toBe(true);
    const code = readFileSync(worker, "utf8");
    expect(code).toMatch(new RegExp(`//# sourceMappingURL=${name}\\.js\\.map\\s*$`));
    expect(code).toMatch(/^import \{ parse \} from "csv-parse";$/m);
    // not the HTTP server, nor tsx (a dev dependency, absent in production)
    expect(code).not.toMatch(/from "(fastify|socket\.io|pg-boss|tsx)[/"]/);
  });

  it("with --enable-source-maps a start-up error's stack names the TypeScript files and lines", async () => {
    const { code, stderr } = await run(["--enable-source-maps"]);
    expect(code).toBe(1);
    expect(stderr).toContain("Atende could not start: Migration 0001_broken.sql failed");
    expect(stderr).toContain(`${path.join(server, "src/db/migrate.ts")}:${throwLine()}:`);
    expect(stderr).toMatch(/src\/main\.ts:\d+:\d+/);
    expect(stderr).not.toContain("dist/main.js:");
  }, 90_000);

  it("without it the same stack names only the bundle (so the flag is what maps it)", async () => {
    const { code, stderr } = await run([]);
    expect(code).toBe(1);
    expect(stderr).toContain("Migration 0001_broken.sql failed");
    expect(stderr).toContain("dist/main.js:");
    expect(stderr).not.toContain("src/db/migrate.ts");
  }, 90_000);

  it("every way production starts the bundle passes --enable-source-maps", () => {
    expect(readFileSync(path.join(root, "scripts/start.mjs"), "utf8")).toMatch(/spawn\(process\.execPath, \["--enable-source-maps", bundle\]/);
    const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^CMD \["node", "--enable-source-maps", "apps\/server\/dist\/main\.js"\]$/m);
  });
});
