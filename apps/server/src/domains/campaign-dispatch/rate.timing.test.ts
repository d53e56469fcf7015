import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { fakePhone, fakeTemplate, waitFor } from "../../../test/fake-graph/setup.js";
import { startFakeGraphProcess, type FakeGraphProcess } from "../../../test/fake-graph/process.js";
import { sendStarts } from "./engine.js";
import { buildCampaign, phones, rateFigures, templateId } from "./test-factory.js";

process.env.CAMPAIGN_POLL_MS = "100";

/**
 * The exact rate, measured twice: by the pacing's own clock (when each send starts: never more than
 * the rate in any one-second window, by construction) and where Meta would see it, by the fake Graph
 * API in a process of its own from the arrival time of every send. On arrival the requests carry
 * the HTTP client's and the machine's jitter (a few ms, tens on a loaded machine), which the pacing's
 * 15 ms margin absorbs up to that much: one send above the rate is allowed there.
 */
let app: TestApp;
let fake: FakeGraphProcess;
let dataDir: string;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeGraphProcess();
  await fake.setTemplates([fakeTemplate("pedido_enviado")]);
  dataDir = mkdtempSync(path.join(tmpdir(), "atende-rate-"));
  app = await createTestApp({ whatsappGraphUrl: fake.url, dataDir });
});
afterAll(async () => {
  await app.close();
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function numberWithRate(rate: number) {
  const t = await buildTenant(app);
  const phone = fakePhone({ digits: `55319${String(80000000 + ++seq)}` });
  await fake.setPhones([phone]);
  const created = await app.api("POST", "/api/businesses", {
    token: t.admin.token,
    body: { name: "Conta", wabaId: fake.wabaId, accessToken: fake.accessToken, appSecret: fake.appSecret, verifyToken: "verify-token-123" },
  });
  expect(created.statusCode).toBe(200);
  const businessId = created.json().id as number;
  expect((await app.api("POST", `/api/businesses/${businessId}/sync`, { token: t.admin.token })).statusCode).toBe(200);
  const n = await app.sql.one<{ id: number }>("UPDATE official_numbers SET throughput_per_second = $2, messaging_limit = 'TIER_UNLIMITED' WHERE business_id = $1 RETURNING id", [
    businessId,
    rate,
  ]);
  return { t, businessId, numberId: n.id, phoneNumberId: phone.id };
}

describe("exact rate", () => {
  // The pacing (never above the rate in any one-second window) holds whatever the machine does; the
  // average can only fall short when the machine cannot keep up. At 25/s it must be within 2 %; at
  // 200/s, on a CI machine running other suites beside this one, at least 90 % (bench/campaign-dispatch.ts
  // measures the 2 % target on a quieter machine).
  for (const [rate, count, floor] of [
    [25, 150, 0.98],
    [200, 1200, 0.9],
  ] as const) {
    it(`${rate} msg/s: no one-second window above ${rate}, and the average close to it`, { timeout: 60_000 }, async () => {
      const n = await numberWithRate(rate);
      const starts: number[] = [];
      sendStarts.observe = (numberId, at) => void (numberId === n.numberId && starts.push(at));
      const id = await buildCampaign(app.sql, { companyId: n.t.companyId, businessId: n.businessId, templateIds: [await templateId(app.sql, n.businessId, "pedido_enviado")], phones: phones(count, seq * 10_000) });
      expect((await app.api("POST", `/api/campaigns/${id}/start`, { token: n.t.supervisor.token })).statusCode).toBe(200);
      await waitFor(async () => (await app.sql.one<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [id])).status === "FINISHED", 40_000, "finished");
      const sends = (await fake.sends()).filter((s) => s.phoneNumberId === n.phoneNumberId);
      expect(sends).toHaveLength(count);
      const figures = rateFigures(sends.map((s) => s.at));
      const paced = rateFigures(starts);
      expect(starts).toHaveLength(count);
      expect(paced.maxWindow).toBeLessThanOrEqual(rate);
      // counted from the answers (core/send-pacer.ts): the fake never sees more than `rate` in a second
      expect(figures.maxWindow).toBeLessThanOrEqual(rate);
      expect(figures.rate).toBeGreaterThanOrEqual(rate * floor);
      expect(figures.rate).toBeLessThanOrEqual(rate * 1.02);
    });
  }
});
