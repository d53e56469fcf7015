import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "../../db/migrate.js";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";

/**
 * Migration 0400 fills the tracking of tickets written before it. The state before it is rebuilt
 * here (triggers off, rows as the earlier code left them), then the migration's fill statements run.
 */

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
});
afterAll(async () => {
  await app.close();
});

async function fillSection(): Promise<string> {
  const text = await readFile(path.join(MIGRATIONS_DIR, "0400_ticket_tracking.sql"), "utf8");
  const start = text.indexOf("-- Fill what the earlier code did not record.");
  const end = text.indexOf("CREATE FUNCTION ticket_tracking_insert");
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
}

describe("migration 0400: tracking of existing tickets", () => {
  it("adds origin, a cycle for untracked tickets, the close left out, and ratings", async () => {
    const T = t.companyId;
    const contact = async (n: string) =>
      (await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, $2, $2) RETURNING id", [T, n])).id;
    await app.pool.query("ALTER TABLE tickets DISABLE TRIGGER tickets_tracking_insert, DISABLE TRIGGER tickets_tracking_update");
    await app.pool.query("ALTER TABLE ticket_ratings DISABLE TRIGGER ticket_ratings_tracking");
    try {
      // a proactive ticket closed without tracking at all
      const untracked = (
        await app.sql.one<{ id: number }>(
          `INSERT INTO tickets (company_id, contact_id, status, user_id, origin_from_me, created_at, closed_at)
           VALUES ($1, $2, 'closed', $3, true, '2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z') RETURNING id`,
          [T, await contact("5511911110001"), t.user.id],
        )
      ).id;
      // a customer's ticket whose cycle was tracked, closed by a contact merge (no finish), then rated
      const merged = (
        await app.sql.one<{ id: number }>(
          `INSERT INTO tickets (company_id, contact_id, status, user_id, origin_from_me, created_at, updated_at)
           VALUES ($1, $2, 'closed', $3, false, '2026-01-06T10:00:00Z', '2026-01-06T12:00:00Z') RETURNING id`,
          [T, await contact("5511911110002"), t.admin.id],
        )
      ).id;
      await app.sql.exec(
        `INSERT INTO ticket_traking (company_id, ticket_id, user_id, queued_at, started_at, created_at)
         VALUES ($1, $2, $3, '2026-01-06T10:00:00Z', '2026-01-06T10:30:00Z', '2026-01-06T10:00:00Z')`,
        [T, merged, t.admin.id],
      );
      await app.sql.exec("INSERT INTO ticket_ratings (company_id, ticket_id, user_id, rate, created_at) VALUES ($1, $2, $3, 2, '2026-01-06T13:00:00Z')", [
        T,
        merged,
        t.admin.id,
      ]);
      // a pending ticket nobody took
      const waiting = (
        await app.sql.one<{ id: number }>(
          "INSERT INTO tickets (company_id, contact_id, status, created_at) VALUES ($1, $2, 'pending', '2026-01-07T09:00:00Z') RETURNING id",
          [T, await contact("5511911110003")],
        )
      ).id;

      await app.pool.query(await fillSection());

      const rows = await app.sql.many(
        `SELECT ticket_id, user_id, origin_from_me, queued_at, started_at, finished_at, rating, rated_at
           FROM ticket_traking WHERE company_id = $1 ORDER BY ticket_id`,
        [T],
      );
      expect(rows).toEqual([
        {
          ticket_id: untracked,
          user_id: t.user.id,
          origin_from_me: true,
          queued_at: new Date("2026-01-05T10:00:00Z"),
          started_at: new Date("2026-01-05T10:00:00Z"),
          finished_at: new Date("2026-01-05T11:00:00Z"),
          rating: null,
          rated_at: null,
        },
        {
          ticket_id: merged,
          user_id: t.admin.id,
          origin_from_me: false,
          queued_at: new Date("2026-01-06T10:00:00Z"),
          started_at: new Date("2026-01-06T10:30:00Z"),
          finished_at: new Date("2026-01-06T12:00:00Z"),
          rating: 2,
          rated_at: new Date("2026-01-06T13:00:00Z"),
        },
        {
          ticket_id: waiting,
          user_id: null,
          origin_from_me: false,
          queued_at: new Date("2026-01-07T09:00:00Z"),
          started_at: null,
          finished_at: null,
          rating: null,
          rated_at: null,
        },
      ]);
    } finally {
      await app.pool.query("ALTER TABLE tickets ENABLE TRIGGER tickets_tracking_insert, ENABLE TRIGGER tickets_tracking_update");
      await app.pool.query("ALTER TABLE ticket_ratings ENABLE TRIGGER ticket_ratings_tracking");
    }
  });
});
