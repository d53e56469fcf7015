/**
 * Web app load benchmark: what a browser downloads and how soon it shows something, for the login
 * page and for the first ticket of the workspace, over loopback.
 *
 *   nice npx tsx bench/web-load.ts                                      # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/web-load.ts    # an empty database you own
 *
 * Knobs: BENCH_RUNS (cold loads per page, 5), BENCH_SKIP_BUILD=1 (use apps/web/dist as it is),
 * BENCH_FILES=1 (list every script and style with its transferred size), BENCH_ENCODING=gzip (the
 * browser asks for gzip only, as a client without brotli would: the targets are in gzip bytes).
 *
 * It builds the web app (production build, with its brotli and gzip copies), starts the real server
 * on a fresh database with one company, an agent and an open ticket, and drives Debian's Chromium
 * (headless, a new browser context per run so nothing is cached): the bytes of JavaScript and CSS the
 * page transferred (encoded, as the server sent them) and the time from navigation to the login form
 * (`/login`), and from navigation to the first ticket's row (`/tickets`, already logged in). Then a
 * warm load of `/login` (same context): hashed assets come from the browser cache (immutable).
 */
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page, type Request } from "@playwright/test";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { benchDatabase } from "./database.js";
import { migrate } from "../apps/server/src/db/migrate.js";
import { seedFirstStart } from "../apps/server/src/db/seed.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { buildCompany, buildUser, TEST_PASSWORD, TEST_SECRETS_KEYS } from "../apps/server/test/factories.js";
import { BENCH_NO_REQUEST_LIMITS } from "./server-process.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const webDist = path.join(root, "apps/web/dist");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const contextOptions = process.env.BENCH_ENCODING ? { extraHTTPHeaders: { "Accept-Encoding": process.env.BENCH_ENCODING } } : {};

/** Loads `url` in the page and returns the encoded bytes of its scripts and styles and the ms until `ready` shows. */
async function load(page: Page, url: string, ready: string): Promise<{ bytes: number; ms: number; files: number }> {
  const requests: Request[] = [];
  const seen = (req: Request) => {
    if (["script", "stylesheet"].includes(req.resourceType())) requests.push(req);
  };
  page.on("requestfinished", seen);
  const started = Date.now();
  await page.goto(url);
  await page.locator(ready).first().waitFor({ state: "visible" });
  const ms = Date.now() - started;
  await page.waitForLoadState("networkidle");
  page.off("requestfinished", seen);
  let bytes = 0;
  for (const req of requests) {
    const size = Math.max(0, (await req.sizes()).responseBodySize); // -1 when it came from the cache
    bytes += size;
    if (process.env.BENCH_FILES) console.log(`  ${String(size).padStart(8)} ${new URL(req.url()).pathname}`);
  }
  return { bytes, ms, files: requests.length };
}

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) {
    const b = spawnSync("npm", ["run", "build", "-w", "apps/web", "--", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
    if (b.status !== 0) throw new Error("web build failed");
  }
  const db = await benchDatabase("bench-web-load");
  const url = db.url;
  const pool = createPool(url, 10);
  let built: Awaited<ReturnType<typeof buildApp>> | undefined;
  let browser: Browser | undefined;
  try {
    await migrate(pool);
    const config = {
      ...loadConfig({ ...BENCH_NO_REQUEST_LIMITS, NODE_ENV: "production", SECRETS_KEYS: TEST_SECRETS_KEYS, JWT_SECRET: "w".repeat(40), ADMIN_PASSWORD: "bench-admin-password", ADMIN_EMAIL: "admin@web.test" }),
      logLevel: "warn",
      webDist,
      runJobs: false,
    };
    const sql = new Sql(pool);
    await seedFirstStart(sql, config);
    const companyId = await buildCompany(sql);
    const agent = await buildUser(sql, companyId, { profile: "admin", name: "Bia Bench" });
    const contact = await sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Cliente Bench', '5511987650000') RETURNING id", [companyId]);
    await sql.exec(
      `INSERT INTO tickets (company_id, contact_id, status, user_id, last_message, last_message_at) VALUES ($1, $2, 'open', $3, 'Olá, tudo bem?', now())`,
      [companyId, contact.id, agent.id],
    );
    built = await buildApp(config, pool, url);
    await built.start();
    await built.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });

    const login: { bytes: number; ms: number; files: number }[] = [];
    const tickets: { bytes: number; ms: number; files: number }[] = [];
    let warm = { bytes: 0, ms: 0, files: 0 };
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext(contextOptions);
      const page = await context.newPage();
      login.push(await load(page, `${base}/login`, 'input[name="email"]'));
      if (i === 0) warm = await load(await context.newPage(), `${base}/login`, 'input[name="email"]');
      await page.locator('input[name="email"]').fill(agent.email);
      await page.locator('input[name="password"]').fill(TEST_PASSWORD);
      await page.locator('button[type="submit"]').click();
      await page.waitForURL("**/tickets**");
      await context.close();

      // logged in, cold cache: a new context with the session's refresh cookie only
      const fresh = await browser.newContext(contextOptions);
      const res = await fresh.request.post(`${base}/api/auth/login`, { data: { email: agent.email, password: TEST_PASSWORD } });
      if (!res.ok()) throw new Error(`login failed: ${res.status()}`);
      // the marker a login leaves on the device: with it the app restores the session from the cookie
      await fresh.addInitScript((id) => localStorage.setItem("userId", String(id)), agent.id);
      tickets.push(await load(await fresh.newPage(), `${base}/tickets`, '[data-testid="ticket-item"]'));
      await fresh.close();
    }
    const line = (name: string, xs: { bytes: number; ms: number; files: number }[]) =>
      console.log(`${name.padEnd(30)} JS+CSS ${kb(median(xs.map((x) => x.bytes))).padStart(9)} in ${median(xs.map((x) => x.files))} files, shown after ${median(xs.map((x) => x.ms))} ms (median of ${xs.length})`);
    console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; encoding ${process.env.BENCH_ENCODING ?? "as Chromium asks (br)"}`);
    line("/login (cold)", login);
    line("/tickets first ticket (cold)", tickets);
    line("/login (warm, cached)", [warm]);
  } finally {
    await browser?.close();
    await built?.close();
    await pool.end();
    await db.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
