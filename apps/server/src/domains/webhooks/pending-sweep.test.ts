import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../../app.js";
import { createPool } from "../../db/sql.js";
import type { TestApp } from "../../../test/helper.js";
import * as P from "../../../test/fake-graph/payloads.js";
import { createOfficialTestApp, FakeGraph, officialTenant, waitFor, type OfficialTenant } from "../../../test/fake-graph/setup.js";

/**
 * After a crash under load thousands of deliveries are stored and still pending. A process starting
 * on that database must start at once (its first sweep runs beside the start: the sweep once queued
 * one job per delivery inside the start, and 5,000 of them outlasted the start's 10 s limit, so the
 * server could not start at all) and queue every pending delivery, which the jobs then process.
 */
const PENDING = 5000;

let app: TestApp;
let fake: FakeGraph;
let t: OfficialTenant;
let b: (BuiltApp & { end(): Promise<void> }) | null = null;
beforeAll(async () => {
  fake = await FakeGraph.start();
  app = await createOfficialTestApp(fake);
  t = await officialTenant(app, fake, ["5511911120001"]);
});
afterAll(async () => {
  await b?.end();
  await app.close();
  await fake.close();
});

describe("pending webhook deliveries at start", () => {
  it("starts at once with 5,000 pending deliveries, queues them all in the background, and the jobs process them", async () => {
    const phone = { id: t.numbers[0]!.phoneNumberId, display_phone_number: t.numbers[0]!.displayPhoneNumber };
    const payloads = Array.from({ length: PENDING }, (_, i) => {
      const from = `55119777${String(i % 50).padStart(5, "0")}`;
      return P.webhook(fake.wabaId, [[P.messagesChange(phone, { contacts: [{ wa_id: from, name: `Cliente ${i % 50}` }], messages: [P.text(from, `pendente ${i}`)] })]]);
    });
    // stored as a crashed process leaves them: pending, received two minutes ago, no job queued
    await app.sql.exec(
      `INSERT INTO webhook_events (company_id, business_id, body_sha256, payload, received_at)
       SELECT $1, $2, md5(p::text), p, now() - interval '2 minutes' FROM jsonb_array_elements($3::jsonb) AS p`,
      [t.companyId, t.businessId, JSON.stringify(payloads)],
    );
    const ids = (await app.sql.many<{ id: string }>("SELECT id::text AS id FROM webhook_events WHERE business_id = $1", [t.businessId])).map((r) => r.id);
    expect(ids).toHaveLength(PENDING);

    const pool = createPool(app.databaseUrl, 5);
    const started = performance.now();
    const built = await buildApp({ ...app.ctx.config }, pool, app.databaseUrl);
    await built.start();
    await built.app.ready();
    b = { ...built, end: async () => { await built.close(); await pool.end(); } };
    expect(performance.now() - started, "start with 5,000 pending deliveries (ms)").toBeLessThan(5000);

    // every pending delivery queued, in the background
    await waitFor(
      async () => {
        const { n } = await app.sql.one<{ n: number }>(
          "SELECT count(DISTINCT data->>'eventId')::int AS n FROM pgboss.job WHERE name = 'official.webhook' AND data->>'eventId' = ANY ($1::text[])",
          [ids],
        );
        return n === PENDING;
      },
      20_000,
      "every pending delivery queued",
    );
    // and the jobs process them (the first ones: all 5,000 would take the test's whole budget)
    await waitFor(
      async () => (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM webhook_events WHERE business_id = $1 AND status = 'processed'", [t.businessId])).n >= 20,
      20_000,
      "pending deliveries processed",
    );
    const stored = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE company_id = $1 AND body LIKE 'pendente %'", [t.companyId]);
    expect(stored.n).toBeGreaterThanOrEqual(20);
  }, 90_000);
});
