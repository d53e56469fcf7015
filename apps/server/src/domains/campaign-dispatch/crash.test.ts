import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestApp } from "../../../test/helper.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, waitFor } from "../../../test/fake-graph/setup.js";
import { buildCampaign, phones, templateId } from "./test-factory.js";
import { startDispatchServer, type DispatchServer } from "./test-server-process.js";

/**
 * Exactly once across a crash: the dispatcher runs in a server process of its own, which is killed
 * with SIGKILL mid-run and started again. The fake Graph API (this process) keeps the log of every
 * send Meta would have accepted and posts the status webhooks to this test's app (which receives
 * webhooks and runs no dispatcher), so rows whose answer died with the process are reconciled.
 */
let app: TestApp;
let fake: FakeGraph;
let base: string;
let dataDir: string;
const servers: DispatchServer[] = [];

// this process receives the status webhooks and runs the webhook jobs; the dispatcher runs only in
// the server processes started below (which run no jobs, so a killed one holds no webhook delivery)
process.env.CAMPAIGN_DISPATCH = "false";

beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.templates = [fakeTemplate("pedido_enviado")];
  app = await createOfficialTestApp(fake);
  base = await app.listen();
  dataDir = mkdtempSync(path.join(tmpdir(), "atende-crash-"));
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  await app.close();
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

it("kill -9 mid-run, restart: no phone messaged twice, every row accounted for once its statuses arrived", { timeout: 180_000 }, async () => {
  const t = await officialTenant(app, fake, ["5521999990000"]);
  const number = t.numbers[0]!;
  await app.sql.exec("UPDATE official_numbers SET throughput_per_second = 400, messaging_limit = 'TIER_UNLIMITED' WHERE id = $1", [number.id]);
  const total = 3000;
  const list = phones(total, 20000);
  const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await templateId(app.sql, t.businessId, "pedido_enviado")], phones: list });
  fake.statusPlan = { callbackUrl: `${base}/api/webhooks/whatsapp/${t.businessId}`, stepMs: 100 };
  const env = { CAMPAIGN_LEASE_SECONDS: "2", CAMPAIGN_RECONCILE_SECONDS: "12", CAMPAIGN_POLL_MS: "200", CAMPAIGN_DISPATCH: "true", RUN_JOBS: "false" };
  const opts = { databaseUrl: app.databaseUrl, dataDir, graphUrl: fake.url, env };

  servers.push(await startDispatchServer(opts));
  expect((await app.api("POST", `/api/campaigns/${id}/start`, { token: t.supervisor.token })).statusCode).toBe(200);
  const sends = () => fake.sent.filter((s) => s.body.type === "template");
  await waitFor(async () => sends().length >= 800, 60_000, "800 sends before the crash");
  await servers[0]!.kill9();
  const atCrash = sends().length;
  expect(atCrash).toBeLessThan(total);
  const stuck = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1 AND state = 'sending'", [id]);

  servers.push(await startDispatchServer(opts));
  await waitFor(
    async () => (await app.sql.one<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [id])).status === "FINISHED",
    120_000,
    "campaign finished after the restart",
  );
  await fake.statusesSettled();
  await waitFor(
    async () => (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM webhook_events WHERE status <> 'processed'")).n === 0,
    30_000,
    "status webhooks processed",
  ).catch(async (err) => {
    console.log(await app.sql.many("SELECT status, error, attempts, count(*) FROM webhook_events GROUP BY 1, 2, 3"));
    throw err;
  });

  // 0 phones messaged twice (the fake's log of accepted sends)
  const to = sends().map((s) => String(s.body.to));
  expect(to.length).toBe(new Set(to).size);
  // every row accounted for: none pending or sending; the accepted ones read, the rest failed unconfirmed
  const rows = await app.sql.many<{ phone: string; state: string; provider_id: string | null; error_message: string }>(
    "SELECT phone, state, provider_id, error_message FROM campaign_recipients WHERE campaign_id = $1",
    [id],
  );
  expect(rows).toHaveLength(total);
  const accepted = new Map(sends().map((s) => [String(s.body.to), s.messageId]));
  const byState = (s: string) => rows.filter((r) => r.state === s);
  expect(byState("pending").length + byState("sending").length).toBe(0);
  for (const r of rows) {
    if (accepted.has(r.phone)) expect([r.state, r.provider_id]).toEqual(["read", accepted.get(r.phone)]);
    else expect([r.state, r.error_message.startsWith("outcome not confirmed")]).toEqual(["failed", true]);
  }
  // the crash left answers unrecorded; the statuses (biz_opaque_callback_data) gave them their wamid
  console.log(`crash test: ${atCrash} sends at the kill, ${stuck.n} rows left sending, ${accepted.size} accepted, ${total - accepted.size} unconfirmed`);
  const c = await app.sql.one<Record<string, number>>(
    "SELECT count_processed, count_sent, count_read, count_failed FROM campaigns WHERE id = $1",
    [id],
  );
  expect(c).toEqual({ count_processed: total, count_sent: accepted.size, count_read: accepted.size, count_failed: total - accepted.size });
});
