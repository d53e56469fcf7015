import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../test/helper.js";
import { HOT_TABLES, vacuumHotTables } from "./upkeep.js";

/**
 * The tables every inbound message, status and campaign send updates are vacuumed after a small share
 * of changed rows and keep room on their pages (migration 0820): with PostgreSQL's defaults a million
 * tickets gather 200,000 dead rows before autovacuum runs, and the inbound path slows run after run.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const HOT: readonly string[] = HOT_TABLES;

describe("hot tables' storage", () => {
  it("are vacuumed at a few percent of changed rows and leave room for updated rows", async () => {
    const rows = await app.sql.many<{ relname: string; options: string[] }>(
      "SELECT relname, reloptions AS options FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r'",
      [[...HOT, "messages"]],
    );
    const options = new Map(rows.map((r) => [r.relname, Object.fromEntries((r.options ?? []).map((o) => o.split("=") as [string, string]))]));
    for (const table of HOT) {
      const o = options.get(table) ?? {};
      expect(Number(o.fillfactor), table).toBeLessThanOrEqual(90);
      expect(Number(o.autovacuum_vacuum_scale_factor), table).toBeLessThanOrEqual(0.02);
    }
    expect(Number(options.get("messages")?.autovacuum_vacuum_insert_scale_factor)).toBeLessThanOrEqual(0.02);
  });

  it("are vacuumed (and every changed table analysed) by the server's upkeep job when PostgreSQL's autovacuum is off, and left to autovacuum when it is on", async () => {
    const t = await buildTenant(app);
    // this file's own database: PostgreSQL's autovacuum (if on for the server) must not analyse contacts first
    await app.sql.exec("ALTER TABLE contacts SET (autovacuum_enabled = false)");
    await app.sql.exec(
      `INSERT INTO contacts (company_id, name, number) SELECT $1, 'C' || g, '55119' || (10000000 + g) FROM generate_series(1, 3000) g`,
      [t.companyId],
    );
    await app.sql.exec("INSERT INTO tickets (company_id, contact_id, status) SELECT company_id, id, 'pending' FROM contacts WHERE company_id = $1", [t.companyId]);
    for (let i = 0; i < 3; i++) await app.sql.exec("UPDATE tickets SET unread_messages = unread_messages + 1 WHERE company_id = $1", [t.companyId]);
    const dead = async () => {
      await app.sql.exec("SELECT pg_stat_force_next_flush()");
      return (await app.sql.one<{ n: number }>("SELECT n_dead_tup::int AS n FROM pg_stat_user_tables WHERE relname = 'tickets'")).n;
    };
    expect(await dead()).toBeGreaterThanOrEqual(9000);
    // contacts are not a hot table: 3,000 rows inserted since its last ANALYZE (autovacuum's line: 50 + 10 %)
    const changedSinceAnalyze = async () =>
      (await app.sql.one<{ n: number }>("SELECT n_mod_since_analyze::int AS n FROM pg_stat_user_tables WHERE relname = 'contacts'")).n;
    expect(await changedSinceAnalyze()).toBeGreaterThanOrEqual(3000);
    // tags are not a hot table either: 1,000 deleted rows, past autovacuum's line (50 + 20 %)
    await app.sql.exec("ALTER TABLE tags SET (autovacuum_enabled = false)");
    await app.sql.exec("INSERT INTO tags (company_id, name, color) SELECT $1, 'T' || g, '#000000' FROM generate_series(1, 1000) g", [t.companyId]);
    await app.sql.exec("DELETE FROM tags WHERE company_id = $1 AND name LIKE 'T%'", [t.companyId]);
    const deadTags = async () => {
      await app.sql.exec("SELECT pg_stat_force_next_flush()");
      return (await app.sql.one<{ n: number }>("SELECT n_dead_tup::int AS n FROM pg_stat_user_tables WHERE relname = 'tags'")).n;
    };
    expect(await deadTags()).toBeGreaterThanOrEqual(1000);
    expect(await vacuumHotTables(app.sql, app.ctx.log, true)).toEqual([]);
    const done = await vacuumHotTables(app.sql, app.ctx.log, false);
    expect(done).toContain("tickets");
    expect(done).toContain("contacts"); // analysed: its statistics were stale
    expect(done).toContain("tags"); // vacuumed: its dead rows past autovacuum's default line
    expect(await deadTags()).toBe(0);
    expect(await dead()).toBeLessThan(1000);
    await app.sql.exec("SELECT pg_stat_force_next_flush()");
    expect(await changedSinceAnalyze()).toBe(0);
  });
});
