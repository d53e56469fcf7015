import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeTwilio } from "../../../test/fake-twilio/server.js";
import { loadSmsConfig } from "../../config.js";
import { startDispatchServer, type DispatchServer } from "../campaign-dispatch/test-server-process.js";
import { buildSmsCampaign } from "./test-fixtures.js";
import { waitFor as waitUntil } from "../../../test/wait.js";

/**
 * Exactly once across a crash: the SMS engine runs in a server process of its own (src/main.ts),
 * killed with SIGKILL mid-campaign and started again. The fake Twilio (this process) logs every
 * message it accepted and posts the signed status callbacks to this test's app (which runs no SMS
 * engine), so rows whose answer died with the process are reconciled from their receipts.
 */
const ACCOUNT = "AC" + "c".repeat(32);
const TOKEN = "crash-token";
let app: TestApp;
let fake: FakeTwilio;
let base: string;
let dataDir: string;
const servers: DispatchServer[] = [];

process.env.SMS_DISPATCH = "false";

const waitFor = (check: () => Promise<boolean>, ms: number, what: string) => waitUntil(check, ms, what, 200);

beforeAll(async () => {
  fake = new FakeTwilio({ accountSid: ACCOUNT, authToken: TOKEN, callbackDelayMs: 100 });
  const apiBaseUrl = await fake.start();
  const sms = loadSmsConfig({ SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: ACCOUNT, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: "+15005550006", TWILIO_API_BASE_URL: apiBaseUrl }, "test");
  app = await createTestApp({ sms });
  base = await app.listen();
  app.ctx.config.publicUrl = base;
  dataDir = mkdtempSync(path.join(tmpdir(), "atende-sms-crash-"));
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  await fake.stop();
  await app.close();
  delete process.env.SMS_DISPATCH;
  await rm(dataDir, { recursive: true, force: true });
});

it("kill -9 mid-campaign, restart: no number written to twice, every row accounted for", { timeout: 180_000 }, async () => {
  const t = await buildTenant(app);
  const total = 2000;
  const id = await buildSmsCampaign(app.sql, { companyId: t.companyId, total });
  const env = {
    SMS_PROVIDER: "twilio",
    TWILIO_ACCOUNT_SID: ACCOUNT,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: "+15005550006",
    TWILIO_API_BASE_URL: fake.url,
    SMS_RATE_PER_SECOND: "300",
    SMS_LEASE_SECONDS: "2",
    SMS_RECONCILE_SECONDS: "10",
    SMS_POLL_MS: "200",
    SMS_DISPATCH: "true",
    CAMPAIGN_DISPATCH: "false",
    RUN_JOBS: "false",
    PUBLIC_URL: base,
  };
  const opts = { databaseUrl: app.databaseUrl, dataDir, graphUrl: "http://127.0.0.1:9", env };
  servers.push(await startDispatchServer(opts));
  expect((await app.api("POST", `/api/sms/campaigns/${id}/trigger/`, { token: t.supervisor.token })).statusCode).toBe(200);
  await waitFor(async () => fake.messages.length >= 500, 60_000, "500 messages before the crash");
  await servers[0]!.kill9();
  const atCrash = fake.messages.length;
  expect(atCrash).toBeLessThan(total);
  const stuck = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sms_campaign_recipients WHERE campaign_id = $1 AND state = 'sending'", [id]);

  servers.push(await startDispatchServer(opts));
  await waitFor(async () => (await app.sql.one<{ status: string }>("SELECT status FROM sms_campaigns WHERE id = $1", [id])).status === "FINISHED", 120_000, "the campaign to finish");
  await fake.settled();
  expect(fake.callbackFailures).toEqual([]);

  // 0 numbers written to twice (the fake's log of accepted messages)
  const to = fake.messages.map((m) => m.to);
  expect(to.length).toBe(new Set(to).size);
  const rows = await app.sql.many<{ phone: string; state: string; provider_id: string | null; error_message: string }>(
    "SELECT phone, state, provider_id, error_message FROM sms_campaign_recipients WHERE campaign_id = $1",
    [id],
  );
  expect(rows).toHaveLength(total);
  const accepted = new Map(fake.messages.map((m) => [m.to.slice(1), m.sid]));
  for (const r of rows) {
    if (accepted.has(r.phone)) expect([r.state, r.provider_id]).toEqual(["delivered", accepted.get(r.phone)]);
    else expect([r.state, r.error_message.startsWith("outcome not confirmed")]).toEqual(["failed", true]);
  }
  console.log(`sms crash test: ${atCrash} accepted at the kill, ${stuck.n} rows left sending, ${accepted.size} accepted in all, ${total - accepted.size} unconfirmed`);
  // the counters are recounted from the rows within a second of the last receipt
  const expected = { count_total: total, count_triggered: accepted.size, count_delivered: accepted.size, count_not_delivered: total - accepted.size };
  const counters = () => app.sql.one<Record<string, number>>("SELECT count_total, count_triggered, count_delivered, count_not_delivered FROM sms_campaigns WHERE id = $1", [id]);
  for (let i = 0; i < 50 && JSON.stringify(await counters()) !== JSON.stringify(expected); i++) await new Promise((r) => setTimeout(r, 200));
  expect(await counters()).toEqual(expected);
});
