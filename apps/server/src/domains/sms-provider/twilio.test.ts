import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { FakeTwilio } from "../../../test/fake-twilio/server.js";
import { loadSmsConfig } from "../../config.js";
import { buildSmsCampaign, readySms, seedSmsWorld, waitSms, type SmsWorld } from "../sms-campaigns/test-fixtures.js";
import { TwilioClient } from "./twilio-client.js";
import { twilioSignature, validTwilioSignature } from "./twilio-signature.js";
import { expectEvery } from "../../../test/expect-every.js";

/** The Twilio driver against a fake built from Twilio's docs: sends, error classes, signatures, receipts, inbound. */

const ACCOUNT = "AC" + "0123456789abcdef".repeat(2);
const TOKEN = "test-auth-token-123";

describe("X-Twilio-Signature", () => {
  it("reproduces Twilio's published example (auth token 12345) and refuses any change", () => {
    // twilio-php tests/Twilio/Unit/Security/RequestValidatorTest.php and Twilio's security docs
    const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
    const params = { CallSid: "CA1234567890ABCDE", Caller: "+14158675309", Digits: "1234", From: "+14158675309", To: "+18005551212" };
    expect(twilioSignature("12345", url, params)).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
    expect(validTwilioSignature("12345", url, params, "RSOYDt4T1cUTdK1PDd93/VVr8B8=")).toBe(true);
    expect(validTwilioSignature("12345", url, { ...params, Digits: "9999" }, "RSOYDt4T1cUTdK1PDd93/VVr8B8=")).toBe(false);
    expect(validTwilioSignature("12345", `${url}&x=1`, params, "RSOYDt4T1cUTdK1PDd93/VVr8B8=")).toBe(false);
    expect(validTwilioSignature("", url, params, "RSOYDt4T1cUTdK1PDd93/VVr8B8=")).toBe(false);
    expect(validTwilioSignature("12345", url, params, undefined)).toBe(false);
  });
});

describe("TwilioClient", () => {
  const fake = new FakeTwilio({ accountSid: ACCOUNT, authToken: TOKEN, callbackDelayMs: null });
  let client: TwilioClient;
  const send = (to: string, c = client) => c.send({ companyId: 1, rowId: "42", to, body: "Olá Ana", segments: 1 });
  beforeAll(async () => {
    const url = await fake.start();
    client = new TwilioClient({ accountSid: ACCOUNT, authToken: TOKEN, from: "+15005550006", messagingServiceSid: "", apiBaseUrl: url }, () => "https://atende.example.com/");
  });
  afterAll(() => fake.stop());

  it("sends To, From, Body and a StatusCallback carrying the row id; answers the sid", async () => {
    const out = await send("5511988887777");
    expect(out.kind).toBe("sent");
    const m = fake.messages.at(-1)!;
    expect(out).toEqual({ kind: "sent", providerId: m.sid });
    expect(m.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(m).toMatchObject({ to: "+5511988887777", from: "+15005550006", body: "Olá Ana", statusCallback: "https://atende.example.com/api/webhooks/sms/twilio/status?row=42" });
  });

  it("uses the Messaging Service when one is configured", async () => {
    const svc = new TwilioClient({ accountSid: ACCOUNT, authToken: TOKEN, from: "", messagingServiceSid: "MG" + "a".repeat(32), apiBaseUrl: fake.url }, () => "https://x.test");
    expect((await send("5511988887778", svc)).kind).toBe("sent");
    expect(fake.messages.at(-1)).toMatchObject({ from: "", messagingServiceSid: "MG" + "a".repeat(32) });
  });

  it("classifies Twilio's errors: rate limit and 5xx retried, bad numbers permanent, credentials pause the account", async () => {
    fake.scripts.set("+5511900000429", { kind: "error", status: 429, code: 20429, message: "Too Many Requests" });
    fake.scripts.set("+5511900021610", { kind: "error", status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" });
    fake.scripts.set("+5511900021614", { kind: "error", status: 400, code: 21614, message: "'To' number is not a valid mobile number" });
    fake.scripts.set("+5511900000500", { kind: "error", status: 500, code: 20500, message: "Internal Server Error" });
    expect(await send("5511900000429")).toEqual({ kind: "retry", code: 20429, message: "Too Many Requests", rateLimited: true });
    expect(await send("5511900021610")).toMatchObject({ kind: "failed", code: 21610, permanent: true });
    expect(await send("5511900021614")).toMatchObject({ kind: "failed", code: 21614, permanent: true });
    expect(await send("5511900000500")).toMatchObject({ kind: "retry", rateLimited: false });
    // the fake refuses a 'To' that is not E.164 with 21211, as Twilio does
    expect(await send("12")).toMatchObject({ kind: "failed", code: 21211, permanent: true, message: "The 'To' number +12 is not a valid phone number." });
    const wrong = new TwilioClient({ accountSid: ACCOUNT, authToken: "wrong", from: "+15005550006", messagingServiceSid: "", apiBaseUrl: fake.url }, () => "https://x.test");
    expect(await send("5511988887777", wrong)).toEqual({ kind: "account", code: 20003, message: "Authenticate" });
  });

  it("answers retry when Twilio cannot be reached, and unknown when the connection drops after the request", async () => {
    // a port nobody listens on (taken and released)
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const down = new TwilioClient({ accountSid: ACCOUNT, authToken: TOKEN, from: "+1", messagingServiceSid: "", apiBaseUrl: `http://127.0.0.1:${port}` }, () => "https://x.test");
    expect(await send("5511988887777", down)).toMatchObject({ kind: "retry" });
    fake.scripts.set("+5511900000001", { kind: "drop" });
    expect(await send("5511900000001")).toMatchObject({ kind: "unknown" });
  });
});

describe("a campaign through Twilio (the app configured with SMS_PROVIDER=twilio)", () => {
  const fake = new FakeTwilio({ accountSid: ACCOUNT, authToken: TOKEN, callbackDelayMs: 30 });
  let app: TestApp;
  let dataDir: string;
  let base: string;
  let t: Awaited<ReturnType<typeof buildTenant>>;
  let w: SmsWorld;

  beforeAll(async () => {
    const apiBaseUrl = await fake.start();
    dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-sms-tw-"));
    const sms = loadSmsConfig({ SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: ACCOUNT, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: "+15005550006", TWILIO_API_BASE_URL: apiBaseUrl, SMS_RATE_PER_SECOND: "30" }, "test");
    app = await createTestApp({ dataDir, sms });
    base = await app.listen();
    // Twilio calls back PUBLIC_URL: here the test server's own address
    app.ctx.config.publicUrl = base;
    t = await buildTenant(app);
    w = await seedSmsWorld(app, t.companyId);
  });
  afterAll(async () => {
    await fake.stop();
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("sends each row once; signed status callbacks count delivered and undelivered; a lost answer is reconciled from its receipt", async () => {
    fake.scripts.set("+5511977770002", { kind: "undelivered", errorCode: 30003 });
    fake.scripts.set("+5511977770003", { kind: "drop" });
    fake.scripts.set("+5511977770004", { kind: "error", status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" });
    const csv = "telefone;cpf;email;nome;vencimento\n" + [1, 2, 3, 4, 5].map((i) => `1197777000${i};;;C${i};0${i}/12`).join("\n") + "\n";
    const c = await readySms(app, t.supervisor.token, w, csv);
    expect((await app.api("POST", `/api/sms/campaigns/${c.id}/trigger/`, { token: t.supervisor.token })).statusCode).toBe(200);
    const done = await waitSms(app, t.supervisor.token, c.id, (x) => x.status === "FINISHED" && x.delivered === 3 && x.not_delivered === 2, 20_000);
    expect(done).toMatchObject({ total: 5, triggered: 4, delivered: 3, not_delivered: 2, countProcessed: 5 });
    await fake.settled();
    expect(fake.callbackFailures).toEqual([]);
    expect(fake.messages.filter((m) => m.to.startsWith("+551197777")).map((m) => m.to).sort()).toEqual(["+5511977770001", "+5511977770002", "+5511977770003", "+5511977770005"]);
    const rows = await app.sql.many<{ phone: string; state: string; provider_id: string | null; error_code: number | null }>(
      "SELECT phone, state, provider_id, error_code FROM sms_campaign_recipients WHERE campaign_id = $1 ORDER BY phone",
      [c.id],
    );
    expect(rows.map((r) => [r.phone, r.state, r.error_code])).toEqual([
      ["5511977770001", "delivered", null],
      ["5511977770002", "failed", 30003],
      // its answer was lost (connection dropped): the receipt found the row by the id in its StatusCallback
      ["5511977770003", "delivered", null],
      ["5511977770004", "failed", 21610],
      ["5511977770005", "delivered", null],
    ]);
    expect(rows[2]!.provider_id).toBe(fake.messages.find((m) => m.to === "+5511977770003")!.sid);
  });

  it("callbacks arriving together are applied together, of two companies at once; each is answered once its receipt is committed", async () => {
    const other = await buildTenant(app);
    const built = [await buildSmsCampaign(app.sql, { companyId: t.companyId, total: 150, firstPhone: 40_000_000 }), await buildSmsCampaign(app.sql, { companyId: other.companyId, total: 150, firstPhone: 50_000_000 })];
    const rows = await app.sql.many<{ id: string; company_id: number }>(
      "UPDATE sms_campaign_recipients SET state = 'sent', provider_id = 'SM' || md5(id::text), sent_at = now() WHERE campaign_id = ANY($1::int[]) RETURNING id::text, company_id",
      [built],
    );
    const post = async (row: string | null, sid: string, status: string) => {
      const url = `${base}/api/webhooks/sms/twilio/status${row ? `?row=${row}` : ""}`;
      const params = { AccountSid: ACCOUNT, MessageSid: sid, MessageStatus: status, ...(status === "undelivered" ? { ErrorCode: "30005" } : {}) };
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(TOKEN, url, params) },
        body: new URLSearchParams(params).toString(),
      });
      // answered only after the commit: the row already shows the receipt
      const after = await app.sql.maybe<{ state: string }>("SELECT state FROM sms_campaign_recipients WHERE provider_id = $1", [sid]);
      return { status: res.status, state: after?.state ?? null };
    };
    const sid = (id: string) => `SM${createHash("md5").update(id).digest("hex")}`;
    const answers = await Promise.all([
      ...rows.map((r, i) => post(r.id, sid(r.id), i % 10 === 0 ? "undelivered" : "delivered")),
      post(null, `SM${"f".repeat(32)}`, "delivered"),
    ]);
    expectEvery(answers, (a) => a.status === 204);
    expectEvery(answers.slice(0, -1).map((a, i) => a.state === (i % 10 === 0 ? "failed" : "delivered")), Boolean);
    expect(answers.at(-1)!.state).toBeNull();
    const counts = await app.sql.many<{ company_id: number; state: string; n: number }>(
      "SELECT company_id, state, count(*)::int AS n FROM sms_campaign_recipients WHERE campaign_id = ANY($1::int[]) GROUP BY 1, 2 ORDER BY 1, 2",
      [built],
    );
    expect(counts).toEqual([
      { company_id: t.companyId, state: "delivered", n: 135 },
      { company_id: t.companyId, state: "failed", n: 15 },
      { company_id: other.companyId, state: "delivered", n: 135 },
      { company_id: other.companyId, state: "failed", n: 15 },
    ]);
    // the counters kept by the rows' triggers (migration 0794), in every statement that moved a row
    const counters = await app.sql.many("SELECT count_total, count_triggered, count_delivered, count_not_delivered, count_processed FROM sms_campaigns WHERE id = ANY($1::int[])", [built]);
    expect(counters).toEqual([0, 1].map(() => ({ count_total: 150, count_triggered: 150, count_delivered: 135, count_not_delivered: 15, count_processed: 150 })));
  });

  it("a callback waiting on a row the sender is recording applies once the sender commits", async () => {
    const id = await buildSmsCampaign(app.sql, { companyId: t.companyId, total: 1, firstPhone: 60_000_000 });
    const { id: rowId } = await app.sql.one<{ id: string }>("UPDATE sms_campaign_recipients SET state = 'sending', claimed_at = now() WHERE campaign_id = $1 RETURNING id::text", [id]);
    const sid = `SM${"a".repeat(31)}1`;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    // the sender's record of the answer, holding the row while the callback arrives
    const recording = app.sql.tx(async (sql) => {
      await sql.exec("UPDATE sms_campaign_recipients SET state = 'sent', provider_id = $2, sent_at = now() WHERE id = $1", [rowId, sid]);
      await released;
    });
    const url = `${base}/api/webhooks/sms/twilio/status?row=${rowId}`;
    const params = { AccountSid: ACCOUNT, MessageSid: sid, MessageStatus: "delivered" };
    const callback = fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(TOKEN, url, params) },
      body: new URLSearchParams(params).toString(),
    });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await recording;
    expect((await callback).status).toBe(204);
    expect(await app.sql.one("SELECT state, provider_id FROM sms_campaign_recipients WHERE id = $1", [rowId])).toEqual({ state: "delivered", provider_id: sid });
  });

  it("refuses a status callback or an inbound message without a valid signature", async () => {
    const forged = await fetch(`${base}/api/webhooks/sms/twilio/status?row=1`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": "AAAA" },
      body: "MessageSid=SMx&MessageStatus=delivered",
    });
    expect(forged.status).toBe(403);
    const res = await fake.inbound(`${base}/api/webhooks/sms/twilio/inbound`, "+5511977770001", "SAIR", { badSignature: true });
    expect(res.status).toBe(403);
    expect((await app.sql.many("SELECT 1 FROM opt_outs WHERE company_id = $1", [t.companyId])).length).toBe(0);
  });

  it("an inbound STOP puts the number on the opt-out list of the company that wrote to it and is answered with empty TwiML", async () => {
    const hello = await fake.inbound(`${base}/api/webhooks/sms/twilio/inbound`, "+5511977770001", "Oi, quem é?");
    expect(hello.status).toBe(200);
    const res = await fake.inbound(`${base}/api/webhooks/sms/twilio/inbound`, "+5511977770001", "STOP");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/xml/);
    expect(await res.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const opt = await app.sql.many<{ address: string; source: string }>("SELECT address, source FROM opt_outs WHERE company_id = $1 AND channel = 'sms'", [t.companyId]);
    expect(opt).toEqual([{ address: "5511977770001", source: "reply" }]);
  });
});
