import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, sendsCounted, type TestApp } from "../../../test/helper.js";
import { zonedMinute, sendingWindowOpen } from "./window.js";
import { createSms, readySms, seedSmsWorld, smsTestConfig, uploadCsv, waitSms, type SmsWorld } from "./test-fixtures.js";
import { expectEvery } from "../../../test/expect-every.js";

/** Trigger, pause, resume, cancel, the schedule, the window, receipts, opt-out replies, short links, the report. */

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let w: SmsWorld;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-sms-d-"));
  app = await createTestApp({ dataDir, publicUrl: "https://atende.test", ...smsTestConfig({ rate: 40 }) });
  t = await buildTenant(app);
  other = await buildTenant(app);
  w = await seedSmsWorld(app, t.companyId);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const csvOf = (n: number, start = 0) =>
  "telefone;cpf;email;nome;vencimento\n" + Array.from({ length: n }, (_, i) => `1198${String(start + i + 1).padStart(7, "0")};;;Cliente ${start + i};1${i % 9}/12`).join("\n") + "\n";
const api = (method: string, url: string, token = t.supervisor.token, body?: unknown) => app.api(method, url, { token, body });
const finished = (c: Record<string, unknown>) => c.status === "FINISHED" && c.delivered === c.triggered;

describe("the sending window", () => {
  it("is open from start to end in the company's zone, across midnight when start > end", () => {
    const at = new Date("2026-03-10T13:30:00Z"); // 10:30 in São Paulo (UTC-3)
    expect(zonedMinute(at, "America/Sao_Paulo")).toBe(630);
    expect(sendingWindowOpen(at, "America/Sao_Paulo", 8 * 60, 18 * 60)).toBe(true);
    expect(sendingWindowOpen(at, "America/Sao_Paulo", 11 * 60, 18 * 60)).toBe(false);
    expect(sendingWindowOpen(at, "America/Sao_Paulo", 22 * 60, 11 * 60)).toBe(true);
    expect(sendingWindowOpen(at, "America/Sao_Paulo", 22 * 60, 10 * 60 + 30)).toBe(false);
    expect(sendingWindowOpen(at, "UTC", 13 * 60, 14 * 60)).toBe(true);
    expect(sendingWindowOpen(at, "UTC", null, null)).toBe(true);
  });
});

describe("dispatch", () => {
  it("trigger → RUNNING → FINISHED: each valid row sent once with its text, receipts counted as delivered", async () => {
    const c = await readySms(app, t.supervisor.token, w, csvOf(12) + "abc;;;X;1\n");
    expect(c).toMatchObject({ status: "READY", total: 13, invalid: 1 });
    const counted = await sendsCounted(app, "sms");
    const res = await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const done = await waitSms(app, t.supervisor.token, c.id, finished);
    expect(done).toMatchObject({ total: 13, invalid: 1, triggered: 12, delivered: 12, not_delivered: 0, countProcessed: 12 });
    // the metrics count each send (GET /metrics)
    expect(await sendsCounted(app, "sms")).toEqual({ ...counted, sent: counted.sent + 12 });
    const sent = await app.sql.many<{ to_number: string; body: string; segments: number; n: number }>(
      "SELECT to_number, body, segments, count(*) OVER (PARTITION BY to_number)::int AS n FROM sms_sandbox_messages WHERE company_id = $1 AND recipient_id IN (SELECT id FROM sms_campaign_recipients WHERE campaign_id = $2) ORDER BY to_number",
      [t.companyId, c.id],
    );
    expect(sent).toHaveLength(12);
    expectEvery(sent, (s) => s.n === 1);
    expect(sent[0]).toMatchObject({ to_number: "5511980000001", body: "Olá Cliente 0, sua fatura vence em 10/12.", segments: 1 });
    // a finished campaign cannot be triggered, paused or resumed again
    expect((await api("POST", `/api/sms/campaigns/${c.id}/trigger/`)).json()).toMatchObject({ error: "ERR_SMS_CAMPAIGN_STATUS", message: "A campanha não pode ser disparada no status FINISHED." });
    expect((await api("PATCH", `/api/sms/campaigns/${c.id}/pause/`)).statusCode).toBe(409);
    expect((await api("PATCH", `/api/sms/campaigns/${c.id}/resume/`)).statusCode).toBe(409);
  });

  it("refuses a trigger while the file is missing or analysed, and a plain user", async () => {
    const c = await createSms(app, t.supervisor.token, { title: "x", cost_center_id: w.costCenterId, template: w.noVars, filename: "a.csv" });
    expect((await api("POST", `/api/sms/campaigns/${c.body.id}/trigger/`)).json().message).toBe("A campanha não pode ser disparada no status MISSING_FILE.");
    expect((await api("POST", `/api/sms/campaigns/${c.body.id}/trigger/`, t.user.token)).statusCode).toBe(403);
  });

  it("pause stops the sending within a fraction of a second; resume finishes it", async () => {
    const c = await readySms(app, t.supervisor.token, w, csvOf(120, 1000));
    await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    await waitSms(app, t.supervisor.token, c.id, (x) => (x.countProcessed as number) > 0 || (x.triggered as number) > 0, 10_000);
    const pause = await api("PATCH", `/api/sms/campaigns/${c.id}/pause/`);
    expect(pause.json()).toEqual({ success: true });
    const count = async () => (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sms_campaign_recipients WHERE campaign_id = $1 AND state <> 'pending'", [c.id])).n;
    await new Promise((r) => setTimeout(r, 400));
    const afterPause = await count();
    await new Promise((r) => setTimeout(r, 1000));
    expect(await count()).toBe(afterPause);
    expect(afterPause).toBeLessThan(120);
    expect((await api("GET", `/api/sms/campaigns/${c.id}/`)).json().status).toBe("PAUSED");
    expect((await api("PATCH", `/api/sms/campaigns/${c.id}/resume/`)).json()).toEqual({ success: true });
    const done = await waitSms(app, t.supervisor.token, c.id, finished, 20_000);
    expect(done).toMatchObject({ total: 120, triggered: 120, delivered: 120 });
  });

  it("cancel: rows not yet sent are never sent and count as invalid", async () => {
    const c = await readySms(app, t.supervisor.token, w, csvOf(5, 2000));
    expect((await api("POST", `/api/sms/campaigns/${c.id}/cancel/`)).json()).toEqual({ success: true });
    const got = (await api("GET", `/api/sms/campaigns/${c.id}/`)).json();
    expect(got).toMatchObject({ status: "CANCELLED", total: 5, invalid: 5, triggered: 0 });
    expect((await api("POST", `/api/sms/campaigns/${c.id}/trigger/`)).statusCode).toBe(409);
    expect((await api("POST", `/api/sms/campaigns/${c.id}/cancel/`)).json()).toEqual({ success: true }); // idempotent
  });

  it("a scheduled campaign starts by itself at its time (a durable pg-boss timer)", async () => {
    const created = await createSms(app, t.supervisor.token, {
      title: "agendada", cost_center_id: w.costCenterId, template: w.twoVars, filename: "a.csv", schedule_date: new Date(Date.now() + 4000).toISOString(),
    });
    await uploadCsv(app, t.supervisor.token, created.body.upload_url, csvOf(3, 3000));
    expect((await waitSms(app, t.supervisor.token, created.body.id)).status).toBe("SCHEDULED");
    const done = await waitSms(app, t.supervisor.token, created.body.id, finished, 20_000);
    expect(done).toMatchObject({ triggered: 3, delivered: 3 });
    expect(done.started_at).not.toBeNull();
  });

  it("outside its daily window a RUNNING campaign waits, and sends once the window opens", async () => {
    const now = zonedMinute(new Date(), "America/Sao_Paulo");
    const hh = (m: number) => `${String(Math.floor(((m + 1440) % 1440) / 60)).padStart(2, "0")}:${String((m + 1440) % 60).padStart(2, "0")}`;
    // a window that closed an hour ago... and opens in two hours
    const c = await readySms(app, t.supervisor.token, w, csvOf(3, 4000), { start_hour: hh(now + 120), end_hour: hh(now - 60) });
    await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    await new Promise((r) => setTimeout(r, 1500));
    const waiting = (await api("GET", `/api/sms/campaigns/${c.id}/`)).json();
    expect(waiting).toMatchObject({ status: "RUNNING", outside_window: true, triggered: 0 });
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sms_campaign_recipients WHERE campaign_id = $1 AND state <> 'pending'", [c.id])).n).toBe(0);
    // the window now spans the present minute (as if the clock had reached it)
    await app.sql.exec("UPDATE sms_campaigns SET start_minute = $2, end_minute = $3 WHERE id = $1", [c.id, (now + 1440 - 5) % 1440, (now + 10) % 1440]);
    expect(await waitSms(app, t.supervisor.token, c.id, finished, 15_000)).toMatchObject({ triggered: 3, outside_window: false });
  });

  it("a number that opted out after the analysis is skipped at send time (never written to)", async () => {
    const c = await readySms(app, t.supervisor.token, w, csvOf(3, 5000));
    await app.sql.exec("INSERT INTO opt_outs (company_id, channel, address, source) VALUES ($1, 'sms', '5511980005002', 'reply')", [t.companyId]);
    await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    const done = await waitSms(app, t.supervisor.token, c.id, finished);
    expect(done).toMatchObject({ total: 3, invalid: 1, triggered: 2 });
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sms_sandbox_messages WHERE to_number = '5511980005002'")).n).toBe(0);
  });

  it("a provider refusal of the number ends the row not delivered, permanently (the blacklist's source)", async () => {
    const c = await readySms(app, t.supervisor.token, w, "telefone;cpf;email;nome;vencimento\n5511980000000;;;A;1\n11988880000;;;B;2\n");
    await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    // both numbers end in 0000: the sandbox answers 21211 (Twilio's invalid To)
    const done = await waitSms(app, t.supervisor.token, c.id, (x) => x.status === "FINISHED");
    expect(done).toMatchObject({ total: 2, triggered: 0, delivered: 0, not_delivered: 2 });
    const row = await app.sql.one<{ error_code: number; error_permanent: boolean }>("SELECT error_code, error_permanent FROM sms_campaign_recipients WHERE campaign_id = $1 LIMIT 1", [c.id]);
    expect(row).toEqual({ error_code: 21211, error_permanent: true });
  });
});

describe("replies and the sandbox page", () => {
  it("lists the company's sandbox messages; a SAIR reply puts the number on the opt-out list; later campaigns skip it", async () => {
    const c = await readySms(app, t.supervisor.token, w, csvOf(2, 6000));
    await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    await waitSms(app, t.supervisor.token, c.id, finished);
    const page = (await api("GET", "/api/sms/sandbox/messages/")).json();
    const msg = page.results.find((m: { to: string }) => m.to === "5511980006001");
    expect(msg).toMatchObject({ body: "Olá Cliente 6000, sua fatura vence em 10/12.", segments: 1, status: "delivered" });
    expect((await api("GET", "/api/sms/sandbox/messages/", other.supervisor.token)).json().results).toEqual([]);
    expect((await api("POST", `/api/sms/sandbox/messages/${msg.id}/reply/`, other.supervisor.token, { text: "SAIR" })).statusCode).toBe(404);
    expect((await api("POST", `/api/sms/sandbox/messages/${msg.id}/reply/`, t.supervisor.token, { text: "Obrigado!" })).json()).toEqual({ optedOut: false });
    expect((await api("POST", `/api/sms/sandbox/messages/${msg.id}/reply/`, t.supervisor.token, { text: "Sair" })).json()).toEqual({ optedOut: true });
    const opt = await app.sql.one("SELECT source, reference FROM opt_outs WHERE company_id = $1 AND channel = 'sms' AND address = '5511980006001'", [t.companyId]);
    expect(opt).toEqual({ source: "reply", reference: `sms-campaign:${c.id}` });
    const later = await readySms(app, t.supervisor.token, w, csvOf(2, 6000));
    expect(later).toMatchObject({ total: 2, invalid: 1 });
  });
});

describe("URL shortener", () => {
  it("replaces URLs with PUBLIC_URL/s/<code> per recipient; the redirect counts the first click of each recipient", async () => {
    const c = await readySms(app, t.supervisor.token, w, "telefone;cpf;email;nome\n11987770001;;;Ana\n11987770002;;;Bia\n", { template: w.withUrl, use_shortener_url: true });
    await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    await waitSms(app, t.supervisor.token, c.id, finished);
    const bodies = await app.sql.many<{ body: string }>("SELECT body FROM sms_campaign_recipients WHERE campaign_id = $1 ORDER BY id", [c.id]);
    const codes = bodies.map((b) => /^Oi (Ana|Bia), veja https:\/\/atende\.test\/s\/([A-Za-z0-9_-]{8}) hoje\.$/.exec(b.body)?.[2]);
    expectEvery(codes, Boolean);
    expect(new Set(codes).size).toBe(2);
    // exemplo.com is not declared as the company's own: the click page names it
    const page = await app.app.inject({ method: "GET", url: `/s/${codes[0]}`, headers: { "accept-language": "en-US,en;q=0.9" } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<span data-testid="click-destination">https://exemplo.com/oferta?id=7</span>');
    expect(page.body).toContain("Continue to exemplo.com");
    await app.api("PUT", "/api/settings/linkDomains", { token: t.admin.token, body: { value: "exemplo.com" } });
    try {
      const click = await app.app.inject({ method: "GET", url: `/s/${codes[0]}` });
      expect(click.statusCode).toBe(302);
      expect(click.headers.location).toBe("https://exemplo.com/oferta?id=7");
    } finally {
      await app.api("PUT", "/api/settings/linkDomains", { token: t.admin.token, body: { value: "" } });
    }
    expect((await app.app.inject({ method: "GET", url: "/s/unknown1" })).statusCode).toBe(404);
    expect(await waitSms(app, t.supervisor.token, c.id, (x) => x.clicks === 1)).toMatchObject({ clicks: 1 });
    await app.app.inject({ method: "GET", url: `/s/${codes[1]}` });
    expect(await waitSms(app, t.supervisor.token, c.id, (x) => x.clicks === 2)).toMatchObject({ clicks: 2 });
  });
});

describe("short links go only to the template's own URLs", () => {
  it("a URL from the recipient's data is not shortened; a stored link to a URL not in the template is refused", async () => {
    const template = (await app.sql.one<{ id: number }>(
      "INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Cupom', 'Oi, cupom em https://exemplo.com/c/{{nome}} ou {{vencimento}}') RETURNING id",
      [t.companyId],
    )).id;
    const c = await readySms(app, t.supervisor.token, w, "telefone;cpf;email;nome;vencimento\n11987770011;;;ana;https://evil.test/x\n", { template, use_shortener_url: true });
    await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
    await waitSms(app, t.supervisor.token, c.id, finished);
    const { body } = await app.sql.one<{ body: string }>("SELECT body FROM sms_campaign_recipients WHERE campaign_id = $1", [c.id]);
    const code = /^Oi, cupom em https:\/\/atende\.test\/s\/([A-Za-z0-9_-]{8}) ou https:\/\/evil\.test\/x$/.exec(body)?.[1];
    expect(code, body).toBeTruthy();
    const links = await app.sql.many<{ url: string }>("SELECT url FROM sms_short_links WHERE campaign_id = $1", [c.id]);
    expect(links).toEqual([{ url: "https://exemplo.com/c/ana" }]);
    expect((await app.app.inject({ method: "GET", url: `/s/${code}` })).statusCode).toBe(200);

    // a link row whose URL the template does not have (written by anything but the dispatcher): 404, not counted
    await app.sql.exec(
      "INSERT INTO sms_short_links (code, company_id, campaign_id, recipient_id, url) SELECT 'forjado01', company_id, campaign_id, recipient_id, 'https://evil.test/x' FROM sms_short_links WHERE code = $1",
      [code],
    );
    const refused = await app.app.inject({ method: "GET", url: "/s/forjado01" });
    expect(refused.statusCode).toBe(404);
    expect(refused.headers.location).toBeUndefined();
    expect((await app.sql.one<{ clicked_at: Date | null }>("SELECT clicked_at FROM sms_short_links WHERE code = 'forjado01'")).clicked_at).toBeNull();
  });

  it("with the company's link host (setting linkHost), links are https://{linkHost}/s/<code>", async () => {
    expect((await app.api("PUT", "/api/settings/linkHost", { token: t.admin.token, body: { value: "https://x.test/" } })).json()).toMatchObject({ error: "ERR_VALIDATION" });
    await app.api("PUT", "/api/settings/linkHost", { token: t.admin.token, body: { value: "Links.Exemplo.com" } });
    try {
      const c = await readySms(app, t.supervisor.token, w, "telefone;cpf;email;nome\n11987770021;;;Ana\n", { template: w.withUrl, use_shortener_url: true });
      await api("POST", `/api/sms/campaigns/${c.id}/trigger/`);
      await waitSms(app, t.supervisor.token, c.id, finished);
      const { body } = await app.sql.one<{ body: string }>("SELECT body FROM sms_campaign_recipients WHERE campaign_id = $1", [c.id]);
      expect(body).toMatch(/^Oi Ana, veja https:\/\/links\.exemplo\.com\/s\/[A-Za-z0-9_-]{8} hoje\.$/);
    } finally {
      await app.api("PUT", "/api/settings/linkHost", { token: t.admin.token, body: { value: "" } });
    }
  });
});

describe("GET /api/sms/report/", () => {
  it("pages by 40 with the total, filters by status, cost center and dates, and never shows another company's", async () => {
    const mine = await createSms(app, t.supervisor.token, { title: "filtro", cost_center_id: w.otherCostCenterId, template: w.noVars, filename: "a.csv" });
    const all = (await api("GET", "/api/sms/report/")).json();
    expect(all.count).toBeGreaterThan(5);
    expect(all.results.length).toBeLessThanOrEqual(40);
    expect(all.results[0]).toMatchObject({ id: mine.body.id, title: "filtro", status: "MISSING_FILE", cost_center: expect.stringMatching(/^Cobrança/) });
    const byCc = (await api("GET", `/api/sms/report/?cost_center_id=${w.otherCostCenterId}`)).json();
    expect(byCc).toMatchObject({ count: 1, results: [{ id: mine.body.id }] });
    expectEvery((await api("GET", "/api/sms/report/?status=CANCELLED")).json().results, (r: { status: string }) => r.status === "CANCELLED");
    const page2 = (await api("GET", "/api/sms/report/?page=2&page_size=2")).json();
    expect(page2.results).toHaveLength(2);
    expect(page2.results[0].id).toBe(all.results[2].id);
    expect((await api("GET", "/api/sms/report/?start_date=01/01/2020&end_date=31/12/2020")).json()).toEqual({ results: [], count: 0 });
    expect((await api("GET", "/api/sms/report/?start_date=31/02/2026")).statusCode).toBe(400);
    expect((await api("GET", "/api/sms/report/?start_date=2026-01-01")).statusCode).toBe(400);
    expect((await api("GET", "/api/sms/report/", other.supervisor.token)).json()).toEqual({ results: [], count: 0 });
  });
});
