import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeTwilio } from "../../../test/fake-twilio/server.js";
import { loadSmsConfig } from "../../config.js";
import { smsSendStarts } from "./dispatcher.js";
import { buildSmsCampaign, waitSms } from "./test-fixtures.js";

/**
 * The exact rate (SMS_RATE_PER_SECOND) through the Twilio client: the average on the rate, and no
 * one-second window holding more than `rate` send starts (the dispatcher's clock); the fake's own
 * count of arrivals stays within its jitter of that.
 */
const ACCOUNT = "AC" + "f".repeat(32);
const RATE = 100;
const TOTAL = 600;
// the fake refuses (429) above 110 % of the rate by its own arrival times: requests cross loopback in
// this same process, whose event loop delays some by a few milliseconds, so its count jitters around ours
const fake = new FakeTwilio({ accountSid: ACCOUNT, authToken: "tok", maxPerSecond: Math.floor(RATE * 1.1), callbackDelayMs: null });
let app: TestApp;

beforeAll(async () => {
  const apiBaseUrl = await fake.start();
  const sms = loadSmsConfig({ SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: ACCOUNT, TWILIO_AUTH_TOKEN: "tok", TWILIO_FROM: "+15005550006", TWILIO_API_BASE_URL: apiBaseUrl, SMS_RATE_PER_SECOND: String(RATE) }, "test");
  app = await createTestApp({ sms });
});
afterAll(async () => {
  await app.close();
  await fake.stop();
});

/** The most sends in any one-second window [t, t + 1000). */
function busiestSecond(times: number[]): number {
  const s = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while (s[i]! - s[j]! >= 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

it(`sends ${TOTAL} messages at ${RATE}/s, each once, never above the rate in any one-second window`, { timeout: 60_000 }, async () => {
  const t = await buildTenant(app);
  const id = await buildSmsCampaign(app.sql, { companyId: t.companyId, total: TOTAL });
  const starts: number[] = [];
  smsSendStarts.observe = (at) => starts.push(at);
  expect((await app.api("POST", `/api/sms/campaigns/${id}/trigger/`, { token: t.supervisor.token })).statusCode).toBe(200);
  await waitSms(app, t.supervisor.token, id, (c) => c.status === "FINISHED", 40_000);
  smsSendStarts.observe = undefined;
  expect(starts).toHaveLength(TOTAL);
  expect(fake.messages).toHaveLength(TOTAL);
  expect(new Set(fake.messages.map((m) => m.to)).size).toBe(TOTAL);
  expect(busiestSecond(starts)).toBeLessThanOrEqual(RATE);
  expect(busiestSecond(fake.arrivals)).toBeLessThanOrEqual(Math.floor(RATE * 1.1));
  // (n - 1) intervals of 1/rate between the first and the last start
  const achieved = ((TOTAL - 1) * 1000) / (starts.at(-1)! - starts[0]!);
  console.log(`sms rate: ${achieved.toFixed(2)}/s achieved for ${RATE}/s; busiest second ${busiestSecond(starts)} by our starts, ${busiestSecond(fake.arrivals)} by the fake's arrivals`);
  // never faster than the rate; how close below it depends on the machine's load (the 2 % figure is
  // the bench's, docs/performance.md): here only that it keeps going
  expect(achieved).toBeLessThanOrEqual(RATE * 1.005);
  expect(achieved).toBeGreaterThan(RATE * 0.25);
});
