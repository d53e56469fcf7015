import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, dropTestDatabase } from "../../test/helper.js";
import { startServer } from "../../test/server-processes.js";
import { loadConfig } from "../config.js";
import { hashPassword } from "../core/password.js";
import { seedFirstStart } from "./seed.js";
import { createPool, Sql } from "./sql.js";

/**
 * A data directory first started in development (`npm start`, no ADMIN_PASSWORD) has a super
 * administrator with the development password; a later production start must not run with it. The
 * real server bundle is started in production on such a database.
 */
let databaseUrl: string;
let pool: ReturnType<typeof createPool>;
let sql: Sql;
const dataDir = mkdtempSync(path.join(tmpdir(), "atende-devpw-"));
const production = (env: Record<string, string> = {}) => ({
  name: "production",
  role: "all" as const,
  databaseUrl,
  redisUrl: "",
  dataDir,
  env: { ADMIN_EMAIL: "ops@empresa.test", ADMIN_PASSWORD: "a-real-production-password", ...env },
});
const login = async (base: string, email: string, password: string) =>
  (await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) })).status;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  pool = createPool(databaseUrl, 2);
  sql = new Sql(pool);
  // what the first `npm start` (development, no ADMIN_EMAIL / ADMIN_PASSWORD) seeds
  await seedFirstStart(sql, loadConfig({ NODE_ENV: "development", DATA_DIR: dataDir }));
}, 60_000);

afterAll(async () => {
  await pool.end();
  await dropTestDatabase(databaseUrl);
});

describe("production start with the development password still stored", () => {
  it("refuses to start, naming the user and the way out", { timeout: 120_000 }, async () => {
    const stored = await sql.one<{ email: string }>("SELECT email::text AS email FROM users WHERE super");
    expect(stored.email).toBe("admin@atende.local");
    await expect(startServer(production())).rejects.toThrow(
      /Refusing to start: the super administrator admin@atende\.local still has the development password "admin123"\. Start once with REPLACE_DEVELOPMENT_ADMIN_PASSWORD=true/,
    );
  });

  it("starts once the stored password is another (the stored hash is what is checked)", { timeout: 120_000 }, async () => {
    const before = await sql.one<{ password_hash: string }>("SELECT password_hash FROM users WHERE super");
    await sql.exec("UPDATE users SET password_hash = $1 WHERE super", [await hashPassword("changed-by-the-admin")]);
    try {
      const server = await startServer(production());
      expect(await server.stop()).toBe(0);
    } finally {
      await sql.exec("UPDATE users SET password_hash = $1 WHERE super", [before.password_hash]);
    }
  });

  it("with REPLACE_DEVELOPMENT_ADMIN_PASSWORD=true replaces it with ADMIN_PASSWORD and starts", { timeout: 120_000 }, async () => {
    const server = await startServer(production({ REPLACE_DEVELOPMENT_ADMIN_PASSWORD: "true" }));
    try {
      expect(await login(server.base, "admin@atende.local", "admin123")).toBe(401);
      expect(await login(server.base, "admin@atende.local", "a-real-production-password")).toBe(200);
    } finally {
      await server.stop();
    }
    // and the next plain production start finds nothing to refuse
    const again = await startServer(production());
    expect(await again.stop()).toBe(0);
  });
});
