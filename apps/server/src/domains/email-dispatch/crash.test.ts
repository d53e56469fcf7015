import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeSmtp } from "../../../test/fake-smtp/server.js";
import { startDispatchServer, type DispatchServer } from "../campaign-dispatch/test-server-process.js";
import { seedEmailWorld } from "../email-campaigns/test-fixtures.js";
import { waitFor } from "../../../test/wait.js";

/**
 * Exactly once across a crash: the e-mail dispatcher runs in a server process of its own, sending to a
 * real SMTP server on loopback (this process keeps its log of accepted messages); it is killed with
 * SIGKILL mid-run and started again. No address may receive the campaign twice, and every row ends
 * delivered (accepted and recorded) or unconfirmed (left `sending` by the kill: never re-sent).
 */
let app: TestApp;
let smtp: FakeSmtp;
let dataDir: string;
const servers: DispatchServer[] = [];

// this process only holds the database and the test; the dispatcher runs in the servers below
process.env.EMAIL_DISPATCH = "false";



beforeAll(async () => {
  smtp = await FakeSmtp.start();
  app = await createTestApp();
  dataDir = mkdtempSync(path.join(tmpdir(), "atende-email-crash-"));
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  await app.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
});

it("kill -9 mid-campaign, restart: no address e-mailed twice, every row accounted for", { timeout: 180_000 }, async () => {
  const t = await buildTenant(app);
  const w = await seedEmailWorld(app, t.companyId);
  const total = 2000;
  const { id } = await app.sql.one<{ id: number }>(
    `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html, variables, count_total, started_at)
     VALUES ($1, 'Crash', 'TRIGGERING', $2, $3, $4, $5, 'Olá {{nome}}', '<p>Oi {{nome}}</p><a href="https://loja.test/">loja</a>', '{nome}', $6, now()) RETURNING id`,
    [t.companyId, w.costCenterId, w.senderId, w.senderAddress, w.templateId, total],
  );
  await app.sql.exec(
    `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, variables, state)
     SELECT $1, $2, n, 'cliente' || n || '@x.test', ARRAY['Cliente ' || n], 'pending' FROM generate_series(1, $3) AS n`,
    [t.companyId, id, total],
  );
  const env = {
    CAMPAIGN_SMTP_URL: smtp.url,
    EMAIL_RATE_PER_SECOND: "200",
    EMAIL_LEASE_SECONDS: "2",
    EMAIL_RECONCILE_SECONDS: "6",
    EMAIL_POLL_MS: "200",
    EMAIL_DISPATCH: "true",
    CAMPAIGN_DISPATCH: "false",
    RUN_JOBS: "false",
  };
  const opts = { databaseUrl: app.databaseUrl, dataDir, graphUrl: "http://127.0.0.1:9", env };

  servers.push(await startDispatchServer(opts));
  await waitFor(async () => smtp.received.length >= 600, 60_000, "600 e-mails before the crash");
  await servers[0]!.kill9();
  const atCrash = smtp.received.length;
  expect(atCrash).toBeLessThan(total);
  const stuck = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM email_campaign_recipients WHERE campaign_id = $1 AND state = 'sending'", [id]);

  servers.push(await startDispatchServer(opts));
  await waitFor(async () => (await app.sql.one<{ status: string }>("SELECT status FROM email_campaigns WHERE id = $1", [id])).status === "FINISHED", 120_000, "campaign finished");

  // 0 addresses e-mailed twice (the SMTP server's own log)
  const to = smtp.received.flatMap((m) => m.to);
  expect(to.length).toBe(new Set(to).size);
  const rows = await app.sql.many<{ email: string; state: string }>("SELECT email, state FROM email_campaign_recipients WHERE campaign_id = $1", [id]);
  const received = new Set(to);
  const delivered = rows.filter((r) => r.state === "delivered");
  const unconfirmed = rows.filter((r) => r.state === "unconfirmed");
  expect(delivered.length + unconfirmed.length).toBe(total);
  for (const r of delivered) expect(received.has(r.email)).toBe(true);
  // the deterministic Message-ID names each row once
  const ids = smtp.received.map((m) => m.headers.get("message-id"));
  expect(new Set(ids).size).toBe(ids.length);
  const c = await app.sql.one<Record<string, number>>("SELECT count_emails_sent, count_emails_delivered FROM email_campaigns WHERE id = $1", [id]);
  expect(c).toEqual({ count_emails_sent: delivered.length, count_emails_delivered: delivered.length });
  console.log(`e-mail crash test: ${atCrash} accepted at the kill, ${stuck.n} rows left sending, ${delivered.length} delivered, ${unconfirmed.length} unconfirmed, ${received.size} received`);
});
