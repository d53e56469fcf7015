import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { waitFor } from "../../../test/fake-graph/setup.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

async function business(companyId: number) {
  return (
    await app.sql.one<{ id: number }>(
      "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM', $2, '', '', '') RETURNING id",
      [companyId, `waba-ret-${companyId}`],
    )
  ).id;
}

/** A stored delivery received `hoursAgo` hours ago (a backdated row). */
async function delivery(companyId: number, businessId: number, hoursAgo: number, status = "processed") {
  return (
    await app.sql.one<{ id: string }>(
      `INSERT INTO webhook_events (company_id, business_id, body_sha256, payload, status, received_at)
       VALUES ($1, $2, md5(random()::text), '{"object":"whatsapp_business_account","entry":[]}', $3, now() - make_interval(hours => $4)) RETURNING id`,
      [companyId, businessId, status, hoursAgo],
    )
  ).id;
}

const left = (ids: string[]) => app.sql.many<{ id: string }>("SELECT id FROM webhook_events WHERE id = ANY($1::bigint[]) ORDER BY id", [ids]).then((r) => r.map((x) => x.id));

describe("raw webhook deliveries' retention", () => {
  it("is a company setting of 3 days by default, with a fixed list of values", async () => {
    const t = await buildTenant(app);
    const map = Object.fromEntries((await app.api("GET", "/api/settings", { token: t.admin.token })).json().map((s: { key: string; value: string }) => [s.key, s.value]));
    expect(map.webhookRetentionDays).toBe("3");
    expect((await app.api("PUT", "/api/settings/webhookRetentionDays", { token: t.admin.token, body: { value: "5" } })).json().error).toBe("ERR_VALIDATION");
    expect((await app.api("PUT", "/api/settings/webhookRetentionDays", { token: t.user.token, body: { value: "1" } })).statusCode).toBe(403);
    expect((await app.api("PUT", "/api/settings/webhookRetentionDays", { token: t.admin.token, body: { value: "1" } })).statusCode).toBe(200);
  });

  it("the hourly pg-boss job deletes the deliveries older than their company's retention, and only those", async () => {
    const schedule = await app.sql.maybe<{ cron: string }>("SELECT cron FROM pgboss.schedule WHERE name = 'webhooks.purge'");
    expect(schedule?.cron).toBe("25 * * * *");

    const byDefault = await buildTenant(app);
    const short = await buildTenant(app);
    expect((await app.api("PUT", "/api/settings/webhookRetentionDays", { token: short.admin.token, body: { value: "1" } })).statusCode).toBe(200);
    const b1 = await business(byDefault.companyId);
    const b2 = await business(short.companyId);
    const old = await delivery(byDefault.companyId, b1, 4 * 24); // 4 days: past the default 3
    const oldFailed = await delivery(byDefault.companyId, b1, 3 * 24 + 1, "failed");
    const recent = await delivery(byDefault.companyId, b1, 2 * 24); // 2 days: kept under the default
    const shortOld = await delivery(short.companyId, b2, 2 * 24); // 2 days: past this company's 1 day
    const shortRecent = await delivery(short.companyId, b2, 12);

    await app.ctx.jobs.send("webhooks.purge", {});
    await waitFor(async () => (await left([old, oldFailed, shortOld])).length === 0, 15_000, "the purge job");
    expect(await left([old, oldFailed, recent, shortOld, shortRecent])).toEqual([recent, shortRecent]);
  });
});
