import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeSmtp } from "../../../test/fake-smtp/server.js";
import { rateFigures } from "../campaign-dispatch/test-factory.js";
import { seedEmailWorld } from "../email-campaigns/test-fixtures.js";
import { emailSendStarts } from "./engine.js";

/**
 * The exact rate by the pacing's own clock (when each send starts): never more than
 * EMAIL_RATE_PER_SECOND in any one-second window, and the average within 2 % of it; and where the SMTP
 * server sees it (MAIL FROM arrivals), which adds the pool's and the machine's jitter.
 */
const RATE = 50;
let app: TestApp;
let smtp: FakeSmtp;

beforeAll(async () => {
  smtp = await FakeSmtp.start({ light: true });
  process.env.CAMPAIGN_SMTP_URL = smtp.url;
  process.env.EMAIL_RATE_PER_SECOND = String(RATE);
  process.env.EMAIL_POLL_MS = "100";
  app = await createTestApp();
});
afterAll(async () => {
  emailSendStarts.observe = undefined;
  await app.close();
  await smtp.close();
});

it(`paces ${RATE} e-mails a second: never above in any one-second window, within 2 % on average`, { timeout: 60_000 }, async () => {
  const t = await buildTenant(app);
  const w = await seedEmailWorld(app, t.companyId);
  const total = RATE * 8;
  const { id } = await app.sql.one<{ id: number }>(
    `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html, variables, count_total)
     VALUES ($1, 'Rate', 'ACTIVE', $2, $3, $4, $5, 'Olá {{nome}}', '<p>Oi {{nome}}</p>', '{nome}', $6) RETURNING id`,
    [t.companyId, w.costCenterId, w.senderId, w.senderAddress, w.templateId, total],
  );
  await app.sql.exec(
    `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, variables, state)
     SELECT $1, $2, n, 'r' || n || '@x.test', ARRAY['R' || n], 'pending' FROM generate_series(1, $3) AS n`,
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
  const paced = rateFigures(starts);
  const arrived = rateFigures(smtp.received.map((m) => m.at));
  console.log(
    `e-mail rate ${RATE}/s: pacing ${paced.rate.toFixed(2)}/s, max window ${paced.maxWindow}; arrivals ${arrived.rate.toFixed(2)}/s, ` +
      `max window ${arrived.maxWindow}; ${smtp.connections} SMTP connections`,
  );
  expect(starts).toHaveLength(total);
  expect(paced.maxWindow).toBeLessThanOrEqual(RATE);
  expect(Math.abs(paced.rate / RATE - 1)).toBeLessThan(0.02);
  expect(smtp.received).toHaveLength(total);
  // where the relay sees it: the same rate, never above in any second, over the pool's reused connections
  // (EMAIL_SMTP_CONNECTIONS, 5 by default; a pool that opened one per message would show ~total here)
  expect(arrived.maxWindow).toBeLessThanOrEqual(RATE);
  expect(Math.abs(arrived.rate / RATE - 1)).toBeLessThan(0.02);
  expect(smtp.connections).toBeLessThanOrEqual(5);
});
