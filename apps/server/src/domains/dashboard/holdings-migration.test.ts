import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { buildCompany } from "../../../test/factories.js";
import { MIGRATIONS_DIR, migrate } from "../../db/migrate.js";
import { createPool, Sql } from "../../db/sql.js";

/**
 * Migration 0812 on cycles written before it: the first cycle of a ticket becomes its creation
 * (opened 0), later ones reopenings (1), each starts its own cycle and a finished one ends at its
 * finish, the agents' messages of each cycle are counted, and the roll-up, rebuilt, counts the ticket
 * created once.
 */

const admin = new pg.Client({ connectionString: inject("dbServerUrl") });
let databaseName = "";
let pool: pg.Pool | undefined;

afterAll(async () => {
  await pool?.end();
  if (databaseName) await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.end();
});

/** A database migrated with the files before `before` (0812 left out), then `finish` migrates the rest. */
async function databaseBefore(before: string) {
  await admin.connect();
  databaseName = `atende_t_hold_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const u = new URL(inject("dbServerUrl"));
  u.pathname = `/${databaseName}`;
  pool = createPool(u.toString(), 2);
  const dir = await mkdtemp(path.join(tmpdir(), "atende-migrations-"));
  for (const f of await readdir(MIGRATIONS_DIR)) if (f < before) await symlink(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  await migrate(pool, dir);
  await rm(dir, { recursive: true });
  return new Sql(pool);
}

describe("migration 0812 on existing cycles", () => {
  it("marks creations and reopenings, fills each cycle's start and end, counts its agent messages", async () => {
    const sql = await databaseBefore("0812");
    const c = await buildCompany(sql);
    const one = <T>(text: string, params: unknown[]) => sql.one<T>(text, params);
    const user = (await one<{ id: number }>("INSERT INTO users (company_id, name, email, password_hash) VALUES ($1, 'Ana', 'ana@antes.test', 'x') RETURNING id", [c])).id;
    const contact = (await one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Rui', '5511900000001') RETURNING id", [c])).id;
    const ticket = (await one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, status) VALUES ($1, $2, 'pending') RETURNING id", [c, contact])).id;
    const message = (fromMe: boolean, userId: number | null) =>
      sql.exec("INSERT INTO messages (company_id, ticket_id, contact_id, from_me, user_id, body) VALUES ($1, $2, $3, $4, $5, 'x')", [c, ticket, contact, fromMe, userId]);
    // the triggers of 0400/0401 as they were: a cycle, accepted and answered twice, closed; reopened, answered once
    await message(false, null);
    await sql.exec("UPDATE tickets SET status = 'open', user_id = $2 WHERE id = $1", [ticket, user]);
    await message(true, user);
    await message(true, user);
    await message(true, null); // a greeting or a bot: no agent
    await sql.exec("UPDATE tickets SET status = 'closed' WHERE id = $1", [ticket]);
    await new Promise((r) => setTimeout(r, 5)); // the reopening's messages come after the close
    await sql.exec("UPDATE tickets SET status = 'open' WHERE id = $1", [ticket]);
    await message(true, user);
    expect((await sql.many("SELECT id FROM ticket_traking WHERE ticket_id = $1", [ticket])).length).toBe(2);

    const dir = await mkdtemp(path.join(tmpdir(), "atende-migrations-"));
    for (const f of await readdir(MIGRATIONS_DIR)) await symlink(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
    expect(await migrate(pool!, dir)).toContain("0812_ticket_holdings.sql");
    await rm(dir, { recursive: true });

    const rows = await sql.many<{ opened: number; same_start: boolean; ended_is_finish: boolean | null; messages: number }>(
      `SELECT opened, cycle_queued_at = queued_at AS same_start, ended_at IS NOT DISTINCT FROM finished_at AS ended_is_finish, messages
         FROM ticket_traking WHERE ticket_id = $1 ORDER BY id`,
      [ticket],
    );
    expect(rows).toEqual([
      { opened: 0, same_start: true, ended_is_finish: true, messages: 2 },
      { opened: 1, same_start: true, ended_is_finish: true, messages: 1 },
    ]);
    // the roll-up rebuilt by the migration: one ticket created, two cycles accepted, one finished
    await sql.exec("SELECT ticket_rollup_compact($1)", [c]);
    expect(await one("SELECT sum(created)::int AS created, sum(started)::int AS started, sum(finished)::int AS finished FROM ticket_rollup WHERE company_id = $1", [c])).toEqual({
      created: 1,
      started: 2,
      finished: 1,
    });
  });
});
