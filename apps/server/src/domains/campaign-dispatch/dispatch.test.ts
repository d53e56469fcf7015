import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setSetting } from "../../channels/testing.js";
import { buildQueue, buildTenant, sendsCounted, type TestApp } from "../../../test/helper.js";
import { GRAPH_ERRORS, type GraphErrorAnswer } from "../../../test/fake-graph/errors.js";
import { createOfficialTestApp, FakeGraph, fakeTemplate, officialTenant, waitFor, type OfficialTenant } from "../../../test/fake-graph/setup.js";
import { startFakeBots } from "../../../test/fake-bots/server.js";
import { buildCampaign, buildSandboxBusiness, phones, templateId } from "./test-factory.js";

// the engine's timings, read when the app is built: fast polls and retries, a short lease
process.env.CAMPAIGN_POLL_MS = "100";
process.env.CAMPAIGN_RETRY_BASE_MS = "300";
process.env.CAMPAIGN_LEASE_SECONDS = "3";
process.env.CAMPAIGN_SANDBOX_STEP_MS = "100";

let app: TestApp;
let fake: FakeGraph;
let base: string;
let seq = 0;

beforeAll(async () => {
  fake = await FakeGraph.start();
  fake.templates = [
    fakeTemplate("pedido_enviado"),
    fakeTemplate("promo_imagem", { components: [{ type: "HEADER", format: "IMAGE" }, { type: "BODY", text: "Oferta para {{1}}" }] }),
  ];
  app = await createOfficialTestApp(fake);
  base = await app.listen();
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

/** A company with one synced number on the fake, its throughput and tier set. */
async function tenant(o: { rate?: number; tier?: string } = {}): Promise<OfficialTenant> {
  const t = await officialTenant(app, fake, [`55219${String(80000000 + ++seq * 100)}`]);
  await app.sql.exec("UPDATE official_numbers SET throughput_per_second = $2, messaging_limit = $3 WHERE id = $1", [t.numbers[0]!.id, o.rate ?? 50, o.tier ?? "TIER_UNLIMITED"]);
  return t;
}

const template = (t: OfficialTenant, name = "pedido_enviado") => templateId(app.sql, t.businessId, name);
const start = (t: OfficialTenant, id: number, token = t.supervisor.token) => app.api("POST", `/api/campaigns/${id}/start`, { token });
const pause = (t: OfficialTenant, id: number, token = t.supervisor.token) => app.api("POST", `/api/campaigns/${id}/pause`, { token });
const campaign = (id: number) =>
  app.sql.one<Record<string, number | string>>(
    `SELECT status, account_violation, count_total, count_processed, count_sent, count_delivered, count_read, count_failed, count_expired, count_replied
       FROM campaigns WHERE id = $1`,
    [id],
  );
const status = async (id: number) => (await campaign(id)).status;
const until = (id: number, want: string, ms = 30_000) => waitFor(async () => (await status(id)) === want, ms, `campaign ${id} ${want}`);
/** The template sends the fake accepted from one number. */
const sendsFrom = (t: OfficialTenant) => fake.sent.filter((s) => s.phoneNumberId === t.numbers[0]!.phoneNumberId && s.body.type === "template");
const rowStates = (id: number) =>
  app.sql.many<{ phone: string; state: string; error_code: number | null; attempts: number }>(
    "SELECT phone, state, error_code, attempts FROM campaign_recipients WHERE campaign_id = $1 ORDER BY row_number",
    [id],
  );

describe("start and pause: who may, and from which status", () => {
  it("needs a session, supervisor or above, the company's own campaign, and campaigns enabled", async () => {
    const t = await tenant();
    const other = await buildTenant(app);
    const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: phones(3, 9000) });
    expect((await app.api("POST", `/api/campaigns/${id}/start`)).statusCode).toBe(401);
    expect((await start(t, id, t.user.token)).statusCode).toBe(403);
    const foreign = await start(t, id, other.admin.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe("ERR_NOT_FOUND");
    expect((await pause(t, id)).json().error).toBe("ERR_CAMPAIGN_NOT_PAUSABLE");
    await setSetting(app, t.companyId, "campaignsEnabled", "false");
    const off = await start(t, id);
    expect(off.statusCode).toBe(403);
    expect(off.json().error).toBe("ERR_FEATURE_DISABLED");
    await setSetting(app, t.companyId, "campaignsEnabled", "true");
    expect(await status(id)).toBe("READY");
  });

  it("refuses to start from ANALYZING, ERROR, FINISHED and CANCELLED with 409", async () => {
    const t = await tenant();
    for (const s of ["ANALYZING", "ERROR", "FINISHED", "CANCELLED"]) {
      const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: phones(1, 9100), status: s });
      const res = await start(t, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe("ERR_CAMPAIGN_NOT_STARTABLE");
      expect(await status(id)).toBe(s);
    }
    expect(sendsFrom(t)).toHaveLength(0);
  });

  it("pause stops sending within a second; start resumes where it stopped; every phone gets one message", async () => {
    const t = await tenant({ rate: 10 });
    const list = phones(45, 1000);
    const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: list });
    const counted = await sendsCounted(app, "whatsapp");
    const started = await start(t, id);
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ id, status: "RUNNING", countTotal: 45 });
    await waitFor(async () => sendsFrom(t).length >= 12, 10_000, "12 sends");
    const res = await pause(t, id);
    const pausedAt = Date.now();
    expect(res.json().status).toBe("PAUSED");
    await new Promise((r) => setTimeout(r, 2500));
    const afterPause = sendsFrom(t).filter((s) => s.at > pausedAt + 1000);
    expect(afterPause).toHaveLength(0);
    const sentWhilePaused = sendsFrom(t).length;
    expect(sentWhilePaused).toBeLessThan(45);
    expect((await rowStates(id)).filter((r) => r.state === "pending").length).toBe(45 - sentWhilePaused);

    expect((await start(t, id)).json().status).toBe("RUNNING");
    await until(id, "FINISHED");
    const to = sendsFrom(t).map((s) => s.body.to);
    expect(to).toHaveLength(45);
    expect(new Set(to).size).toBe(45);
    expect(await campaign(id)).toMatchObject({ count_processed: 45, count_sent: 45, count_failed: 0 });
    expect(await sendsCounted(app, "whatsapp")).toEqual({ ...counted, sent: counted.sent + 45 });
  });
});

const graphError = (status: number, code: number, message: string): GraphErrorAnswer => ({
  status,
  body: { error: { message, type: "OAuthException", code, error_data: { messaging_product: "whatsapp", details: message } } },
});

describe("Graph errors: retried or failed by code", () => {
  it("retries 130429, 131056, 5xx; fails 131026, 132001 and 100 with Meta's code and text", async () => {
    const t = await tenant({ rate: 50 });
    const list = phones(8, 3000);
    fake.failNext(list[0]!, 2, GRAPH_ERRORS.rateLimit);
    fake.failNext(list[1]!, 1, GRAPH_ERRORS.http500);
    fake.failNext(list[2]!, 1, GRAPH_ERRORS.pairRateLimit);
    fake.failNext(list[3]!, 1, GRAPH_ERRORS.undeliverable);
    fake.failNext(list[4]!, 1, graphError(404, 132001, "(#132001) Template name does not exist in the translation"));
    fake.failNext(list[5]!, 1, graphError(400, 100, "(#100) Invalid parameter"));
    fake.failNext(list[6]!, 1, GRAPH_ERRORS.serviceUnavailable);
    const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: list });
    await start(t, id);
    await until(id, "FINISHED", 40_000);
    const rows = await rowStates(id);
    expect(rows.map((r) => [r.state, r.error_code, r.attempts])).toEqual([
      ["sent", 130429, 3],
      ["sent", 1, 2],
      ["sent", 131056, 2],
      ["failed", 131026, 1],
      ["failed", 132001, 1],
      ["failed", 100, 1],
      ["sent", 131016, 2],
      ["sent", null, 1],
    ]);
    // the retried ones reached Meta once each: one accepted send per sent row
    expect(sendsFrom(t).map((s) => s.body.to).sort()).toEqual([list[0], list[1], list[2], list[6], list[7]].sort());
    expect(await campaign(id)).toMatchObject({ count_processed: 8, count_sent: 5, count_failed: 3 });
    const failed = await app.sql.one<{ error_message: string }>("SELECT error_message FROM campaign_recipients WHERE campaign_id = $1 AND error_code = 131026", [id]);
    expect(failed.error_message).toContain("Message Undeliverable");
  });

  it("an account violation (368) pauses the campaign with Meta's text and leaves the row to send later", async () => {
    const t = await tenant({ rate: 5 });
    const list = phones(6, 3100);
    fake.failNext(list[2]!, 1, graphError(400, 368, "(#368) Temporarily blocked for policies violations"));
    const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: list });
    await start(t, id);
    await until(id, "PAUSED");
    const c = await campaign(id);
    expect(c.account_violation).toContain("368");
    expect(c.account_violation).toContain("Temporarily blocked");
    // rows the loop had claimed ahead go back to pending once it sees the pause (within a second)
    let rows = await rowStates(id);
    for (let i = 0; i < 50 && rows.some((r) => r.state === "sending"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = await rowStates(id);
    }
    expect(rows[2], JSON.stringify(rows)).toMatchObject({ state: "pending", attempts: 0 });
    // started again (the supervisor dealt with it): the violation clears and the rest goes out
    expect((await start(t, id)).json()).toMatchObject({ status: "RUNNING", accountViolation: "" });
    await until(id, "FINISHED");
    expect(new Set(sendsFrom(t).map((s) => s.body.to)).size).toBe(6);
  });

  it("a media header takes the first variable column as its link", async () => {
    const t = await tenant();
    const id = await buildCampaign(app.sql, {
      companyId: t.companyId,
      businessId: t.businessId,
      templateIds: [await template(t, "promo_imagem")],
      phones: phones(1, 3200),
      variables: () => ["https://cdn.example.com/oferta.jpg", "Ana"],
    });
    await start(t, id);
    await until(id, "FINISHED");
    const [send] = sendsFrom(t);
    expect(send!.body.template).toEqual({
      name: "promo_imagem",
      language: { code: "pt_BR" },
      components: [
        { type: "header", parameters: [{ type: "image", image: { link: "https://cdn.example.com/oferta.jpg" } }] },
        { type: "body", parameters: [{ type: "text", text: "Ana" }] },
      ],
    });
    const row = await app.sql.one<{ id: string }>("SELECT id::text FROM campaign_recipients WHERE campaign_id = $1", [id]);
    expect(send!.body.biz_opaque_callback_data).toBe(row.id);
  });
});

describe("portfolio limit", () => {
  it("sends up to the tier's remaining output, waits (WAITING), and resumes by itself when the 24-hour window frees", async () => {
    const t = await tenant({ rate: 50, tier: "TIER_250" });
    // 248 unique phones already reached, leaving the window in 4 seconds
    await app.sql.exec(
      `INSERT INTO business_initiated_sends (company_id, business_id, phone, sent_at)
       SELECT $1, $2, '5599' || g, now() - interval '24 hours' + interval '4 seconds' FROM generate_series(1, 248) g`,
      [t.companyId, t.businessId],
    );
    const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: phones(5, 4000) });
    await start(t, id);
    await until(id, "WAITING", 10_000);
    expect(sendsFrom(t)).toHaveLength(2);
    await until(id, "FINISHED", 20_000);
    expect(sendsFrom(t)).toHaveLength(5);
    const bis = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM business_initiated_sends WHERE business_id = $1 AND phone LIKE '55119%'", [t.businessId]);
    expect(bis.n).toBe(5);
  });

  it("a recipient inside the customer-service window opens no business-initiated conversation", async () => {
    const t = await tenant();
    const list = phones(2, 4100);
    await app.sql.exec("INSERT INTO official_conversations (company_id, whatsapp_id, contact_number, last_inbound_at) VALUES ($1, $2, $3, now())", [
      t.companyId,
      t.numbers[0]!.whatsappId,
      list[0],
    ]);
    const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: list });
    await start(t, id);
    await until(id, "FINISHED");
    const bis = await app.sql.many<{ phone: string }>("SELECT phone FROM business_initiated_sends WHERE business_id = $1", [t.businessId]);
    expect(bis.map((b) => b.phone)).toEqual([list[1]]);
  });
});

describe("6-second rule", () => {
  it("never two messages to one phone from one number within 6 s, also across campaigns", async () => {
    const t = await tenant({ rate: 50 });
    const shared = "5511977776666";
    const a = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: [shared, ...phones(3, 5000)] });
    const b = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: [shared, ...phones(3, 5100)] });
    await start(t, a);
    await start(t, b);
    await until(a, "FINISHED");
    await until(b, "FINISHED", 20_000);
    const times = sendsFrom(t)
      .filter((s) => s.body.to === shared)
      .map((s) => s.at);
    expect(times).toHaveLength(2);
    expect(Math.abs(times[1]! - times[0]!)).toBeGreaterThanOrEqual(6000);
  });
});

describe("statuses and replies", () => {
  it("counters follow the status webhooks (sent, delivered, read, failed); a reply opens a ticket in the campaign's queue", async () => {
    const t = await tenant({ rate: 50 });
    const queueId = await buildQueue(app.sql, t.companyId, { name: "Campanha Black Friday" });
    const list = phones(10, 6000);
    fake.statusPlan = { callbackUrl: `${base}/api/webhooks/whatsapp/${t.businessId}`, stepMs: 30 };
    fake.failedStatusFor.set(list[3]!, { code: 131026, title: "Message undeliverable", details: "Message failed to send because the recipient is unable to receive it." });
    try {
      const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: list, queueId });
      await start(t, id);
      await until(id, "FINISHED");
      await fake.statusesSettled();
      await waitFor(async () => (await campaign(id)).count_read === 9, 15_000, "read statuses");
      expect(fake.statusRefusals).toEqual([]);
      expect(await campaign(id)).toMatchObject({ count_total: 10, count_processed: 10, count_sent: 9, count_delivered: 9, count_read: 9, count_failed: 1, count_replied: 0 });
      const rows = await rowStates(id);
      expect(rows.filter((r) => r.state === "read")).toHaveLength(9);
      expect(rows[3]).toMatchObject({ state: "failed", error_code: 131026 });
      // campaign statuses make no message rows and no status retries
      expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM official_message_statuses WHERE company_id = $1", [t.companyId])).n).toBe(0);

      // the customer answers
      const n = t.numbers[0]!;
      const reply = {
        object: "whatsapp_business_account",
        entry: [
          {
            id: fake.wabaId,
            changes: [
              {
                field: "messages",
                value: {
                  messaging_product: "whatsapp",
                  metadata: { display_phone_number: n.displayPhoneNumber.replace(/\D/g, ""), phone_number_id: n.phoneNumberId },
                  contacts: [{ profile: { name: "Cliente" }, wa_id: list[0] }],
                  messages: [{ from: list[0], id: `wamid.reply${seq}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "Quero saber mais" } }],
                },
              },
            ],
          },
        ],
      };
      expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${t.businessId}`, reply)).status).toBe(200);
      const ticket = await waitFor(
        () =>
          app.sql.maybe<{ queue_id: number | null }>(
            "SELECT t.queue_id FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.company_id = $1 AND c.number = $2",
            [t.companyId, list[0]],
          ),
        10_000,
        "reply ticket",
      );
      expect(ticket.queue_id).toBe(queueId);
      expect((await campaign(id)).count_replied).toBe(1);
      const replied = await app.sql.many<{ phone: string }>("SELECT phone FROM campaign_recipients WHERE campaign_id = $1 AND replied_at IS NOT NULL", [id]);
      expect(replied.map((r) => r.phone)).toEqual([list[0]]);
    } finally {
      fake.statusPlan = null;
      fake.failedStatusFor.clear();
    }
  });
});

describe("a campaign's bot", () => {
  it("answers a recipient's reply (a new customer of the Cloud API's batch path) in the campaign's queue", async () => {
    const bots = await startFakeBots();
    process.env.OUTBOUND_ALLOWED_HOSTS = bots.host;
    try {
      const t = await tenant({ rate: 50 });
      const queueId = await buildQueue(app.sql, t.companyId, { name: "Campanha com robô" });
      const bot = await app.sql.one<{ id: number }>(
        "INSERT INTO queue_integrations (company_id, type, name, project_name, url_n8n) VALUES ($1, 'webhook', 'Robô da campanha', 'Robô da campanha', $2) RETURNING id",
        [t.companyId, `${bots.url}/webhook`],
      );
      const list = phones(2, 7600);
      const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: t.businessId, templateIds: [await template(t)], phones: list, queueId });
      await app.sql.exec("UPDATE campaigns SET integration_id = $2 WHERE id = $1", [id, bot.id]);
      await start(t, id);
      await until(id, "FINISHED");
      const n = t.numbers[0]!;
      const reply = {
        object: "whatsapp_business_account",
        entry: [
          {
            id: fake.wabaId,
            changes: [
              {
                field: "messages",
                value: {
                  messaging_product: "whatsapp",
                  metadata: { display_phone_number: n.displayPhoneNumber.replace(/\D/g, ""), phone_number_id: n.phoneNumberId },
                  contacts: [{ profile: { name: "Bruna" }, wa_id: list[1] }],
                  messages: [{ from: list[1], id: `wamid.botreply${seq}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "Tenho interesse" } }],
                },
              },
            ],
          },
        ],
      };
      expect((await fake.deliver(`${base}/api/webhooks/whatsapp/${t.businessId}`, reply)).status).toBe(200);
      // the bot's answer goes out through the Cloud API to the customer
      const answer = await waitFor(
        async () => fake.sent.find((r) => r.body.to === list[1] && r.body.type === "text" && JSON.stringify(r.body).includes("Eco: Tenho interesse")),
        15_000,
        "the bot's answer",
      );
      expect(answer.phoneNumberId).toBe(n.phoneNumberId);
      const ticket = await app.sql.one("SELECT t.queue_id, t.integration_id, t.use_integration, t.status FROM tickets t JOIN contacts c ON c.id = t.contact_id WHERE t.company_id = $1 AND c.number = $2", [
        t.companyId,
        list[1],
      ]);
      expect(ticket).toEqual({ queue_id: queueId, integration_id: bot.id, use_integration: true, status: "pending" });
    } finally {
      delete process.env.OUTBOUND_ALLOWED_HOSTS;
      await bots.close();
    }
  });
});

describe("sandbox business", () => {
  it("delivers the rendered text to the sandbox phone, simulates statuses with the failure rate, and finishes", async () => {
    const t = await tenant();
    const sb = await buildSandboxBusiness(app.sql, t.companyId);
    // the failure rate: admin only, the company's sandbox business only
    expect((await app.api("PUT", `/api/sandbox-businesses/${sb.businessId}/failure-rate`, { token: t.supervisor.token, body: { failureRate: 0.5 } })).statusCode).toBe(403);
    expect((await app.api("PUT", `/api/sandbox-businesses/${t.businessId}/failure-rate`, { token: t.admin.token, body: { failureRate: 0.5 } })).statusCode).toBe(404);
    expect((await app.api("PUT", `/api/sandbox-businesses/${sb.businessId}/failure-rate`, { token: t.admin.token, body: { failureRate: 2 } })).statusCode).toBe(400);
    const set = await app.api("PUT", `/api/sandbox-businesses/${sb.businessId}/failure-rate`, { token: t.admin.token, body: { failureRate: 0.5 } });
    expect(set.json()).toEqual({ businessId: sb.businessId, failureRate: 0.5 });

    const list = phones(40, 7000);
    const id = await buildCampaign(app.sql, { companyId: t.companyId, businessId: sb.businessId, templateIds: [sb.templateId], phones: list });
    await start(t, id);
    await until(id, "FINISHED");
    const phone = await app.sql.many<{ number: string; body: string }>(
      "SELECT number, body FROM sandbox_messages WHERE whatsapp_id = $1 AND direction = 'outbound' ORDER BY id",
      [sb.whatsappId],
    );
    expect(phone).toHaveLength(40);
    expect(phone[0]).toEqual({ number: list[0], body: "Olá Cliente 1, seu pedido PED-1 saiu para entrega." });
    // every simulated status applied through the same handler as the webhooks: read or failed
    await waitFor(async () => {
      const c = await campaign(id);
      return Number(c.count_read) + Number(c.count_failed) === 40;
    }, 10_000, "simulated statuses");
    const c = await campaign(id);
    const rows = await rowStates(id);
    expect(rows.filter((r) => r.state === "failed").length).toBe(c.count_failed);
    expect(c.count_failed).toBeGreaterThan(0);
    expect(c.count_failed).toBeLessThan(40);
    expect(c).toMatchObject({ count_processed: 40, count_sent: 40 - Number(c.count_failed), count_read: 40 - Number(c.count_failed) });
    // nothing went to Meta
    expect(fake.sent.filter((s) => s.body.to === list[0])).toHaveLength(0);
  });
});
