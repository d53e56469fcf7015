import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { START_LOCKS, withSessionLock } from "./session-lock.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/migrations, seen from src/db/ (the sources) or from dist/ (the bundle scripts/build-server.mjs makes). */
export const MIGRATIONS_DIR = path.resolve(here, path.basename(here) === "dist" ? "../migrations" : "../../migrations");

/**
 * Applies every `migrations/NNNN_name.sql` not yet recorded, each in its own transaction,
 * under an advisory lock so several processes starting together apply each file once.
 */
export async function migrate(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  return withSessionLock(pool, START_LOCKS.migrations, async (client) => {
    const applied: string[] = [];
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const done = new Set((await client.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map((r) => r.name));
    const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
    for (const file of files) {
      if (done.has(file)) continue;
      const text = await readFile(path.join(dir, file), "utf8");
      await client.query("BEGIN");
      try {
        await client.query(text);
        await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [file]);
        await client.query("COMMIT");
        applied.push(file);
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${file} failed: ${(err as Error).message}`);
      }
    }
    return applied;
  });
}
