import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeSmtp } from "../../../test/fake-smtp/server.js";
import { rateFigures } from "../campaign-dispatch/test-factory.js";
import { seedEmailWorld } from "../email-campaigns/test-fixtures.js";
import { emailSendStarts } from "./engine.js";

/**
 * Pacing against a relay slower than the rate: 2 pooled connections, each message held 200 ms after
 * DATA, so the relay takes at most ~10 a second while the rate asks 40. The engine waits for a free
 * pooled connection before each slot, so the pacing clock follows the wire: every send reaches the
 * relay (MAIL FROM) right after its start by the pacing clock, instead of piling up in the pool's
 * queue and leaving in bursts, and the relay never sees more connections at once than the pool's size.
 */
const RATE = 40;
const CONNECTIONS = 2;
let app: TestApp;
let smtp: FakeSmtp;

beforeAll(async () => {
  smtp = await FakeSmtp.start({ light: true, dataDelayMs: 200 });
  process.env.CAMPAIGN_SMTP_URL = smtp.url;
  process.env.EMAIL_RATE_PER_SECOND = String(RATE);
  process.env.EMAIL_SMTP_CONNECTIONS = String(CONNECTIONS);
  process.env.EMAIL_POLL_MS = "100";
  app = await createTestApp();
});
afterAll(async () => {
  emailSendStarts.observe = undefined;
  delete process.env.EMAIL_SMTP_CONNECTIONS;
  await app.close();
  await smtp.close();
});

it("waits for a free pooled connection before each send: no queue builds up behind a slow relay", { timeout: 60_000 }, async () => {
  const t = await buildTenant(app);
  const w = await seedEmailWorld(app, t.companyId);
  const total = 40;
  const { id } = await app.sql.one<{ id: number }>(
    `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html, variables, count_total)
     VALUES ($1, 'Pool', 'ACTIVE', $2, $3, $4, $5, 'Olá {{nome}}', '<p>Oi {{nome}}</p>', '{nome}', $6) RETURNING id`,
    [t.companyId, w.costCenterId, w.senderId, w.senderAddress, w.templateId, total],
  );
  await app.sql.exec(
    `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, variables, state)
     SELECT $1, $2, n, 'p' || n || '@x.test', ARRAY['P' || n], 'pending' FROM generate_series(1, $3) AS n`,
    [t.companyId, id, total],
  );
  const starts: number[] = [];
  emailSendStarts.observe = (at) => starts.push(at);
  expect((await app.api("POST", `/api/email/campaigns/${id}/trigger/`, { token: t.supervisor.token })).statusCode).toBe(200);
  const until = Date.now() + 50_000;
  while ((await app.sql.one<{ status: string }>("SELECT status FROM email_campaigns WHERE id = $1", [id])).status !== "FINISHED") {
    if (Date.now() > until) throw new Error("campaign did not finish");
    await new Promise((r) => setTimeout(r, 100));
  }
  const arrivals = smtp.received.map((m) => m.at).sort((a, b) => a - b);
  expect(arrivals).toHaveLength(total);
  expect(starts).toHaveLength(total);
  // the i-th send by the pacing clock reaches the relay soon after it: the lag never grows with a queue
  const lags = starts.map((s, i) => arrivals[i]! - s);
  const paced = rateFigures(starts);
  console.log(
    `pool pacing: ${paced.rate.toFixed(2)}/s by the pacing clock; lag to the relay max ${Math.max(...lags)} ms, last ${lags.at(-1)} ms; ` +
      `${smtp.connections} connections opened, at most ${smtp.maxOpen} at once`,
  );
  expect(Math.max(...lags)).toBeLessThan(400);
  // never more than the pool's size at the relay (without the wait, nodemailer's pool opened 13 at once here)
  expect(smtp.maxOpen).toBeLessThanOrEqual(CONNECTIONS);
  // the relay's pace, not the configured one: 2 connections × (1 s / ~200 ms)
  expect(paced.maxWindow).toBeLessThanOrEqual(RATE);
  expect(paced.rate).toBeLessThan(15);
});
