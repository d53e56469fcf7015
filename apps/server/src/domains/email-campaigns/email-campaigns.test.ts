import { CAMPAIGN_MESSAGES } from "@atende/shared";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTenant, createTestApp, sendsCounted, type TestApp } from "../../../test/helper.js";
import { bodyPart, decodeHeader, FakeSmtp } from "../../../test/fake-smtp/server.js";
import { longLineWhileStoringCsv } from "../campaigns/test-fixtures.js";
import { signTrackingToken } from "../email-tracking/tokens.js";
import { createBody, createWithFile, seedEmailWorld, waitStatus, type EmailWorld } from "./test-fixtures.js";

/** E-mail campaigns end to end against a real SMTP server on loopback (test/fake-smtp). */

let app: TestApp;
let smtp: FakeSmtp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let w: EmailWorld;
let ow: EmailWorld;

beforeAll(async () => {
  smtp = await FakeSmtp.start();
  // read when the app is built: the relay, a fast rate, fast polls and retries
  process.env.CAMPAIGN_SMTP_URL = smtp.url;
  process.env.EMAIL_RATE_PER_SECOND = "40";
  process.env.EMAIL_POLL_MS = "100";
  process.env.EMAIL_RETRY_BASE_MS = "200";
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-email-"));
  app = await createTestApp({ dataDir, publicUrl: "https://atende.test" });
  t = await buildTenant(app);
  other = await buildTenant(app);
  w = await seedEmailWorld(app, t.companyId);
  ow = await seedEmailWorld(app, other.companyId);
});
afterAll(async () => {
  await app.close();
  await smtp.close();
  await rm(dataDir, { recursive: true, force: true });
});

const post = (body: unknown, token = t.supervisor.token) => app.api("POST", "/api/email/campaigns/", { token, body });
const rows = (id: number) =>
  app.sql.many<{ email: string; state: string; invalid_reason: string; error_code: number | null; attempts: number }>(
    "SELECT email, state, invalid_reason, error_code, attempts FROM email_campaign_recipients WHERE campaign_id = $1 ORDER BY row_number",
    [id],
  );
const counters = (id: number) =>
  app.sql.one<Record<string, number>>(
    `SELECT count_total, count_invalid, count_emails_sent, count_emails_delivered, count_emails_opened, count_emails_clicked, count_emails_not_delivered
       FROM email_campaigns WHERE id = $1`,
    [id],
  );
const pathOf = (url: string) => new URL(url).pathname;

describe("POST /api/email/campaigns/: access and spec §5 rules in order", () => {
  it("needs a session and a supervisor", async () => {
    expect((await app.api("POST", "/api/email/campaigns/", { body: createBody(w) })).statusCode).toBe(401);
    expect((await post(createBody(w), t.user.token)).statusCode).toBe(403);
  });

  const cases: [string, string, string][] = [
    ["cost_center_id", "ERR_CAMPAIGN_COST_CENTER_REQUIRED", "O centro de custo é obrigatório."],
    ["title", "ERR_CAMPAIGN_TITLE_REQUIRED", "O título da campanha é obrigatório."],
    ["filename", "ERR_CAMPAIGN_FILE_REQUIRED", "O arquivo é obrigatório."],
    ["sender", "ERR_EMAIL_SENDER_REQUIRED", "O remetente é obrigatório."],
    ["template", "ERR_EMAIL_TEMPLATE_REQUIRED", "O template é obrigatório."],
  ];
  for (const [field, code, message] of cases) {
    it(`${field} missing → ${code} '${message}'`, async () => {
      const res = await post(createBody(w, { [field]: "" }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: code, message });
    });
  }

  it("all missing answers the first rule (cost center)", async () => {
    const res = await post({});
    expect(res.json()).toMatchObject({ error: "ERR_CAMPAIGN_COST_CENTER_REQUIRED" });
  });

  it("a file name that is not .csv → 'Extensão não permitida.'", async () => {
    const res = await post(createBody(w, { filename: "lista.xlsx" }));
    expect(res.json()).toMatchObject({ error: "ERR_CAMPAIGN_FILE_EXTENSION", message: "Extensão não permitida." });
  });

  it("an unverified sender, another company's sender, template or cost center → 404", async () => {
    expect((await post(createBody(w, { sender: w.unverifiedSenderId }))).statusCode).toBe(404);
    expect((await post(createBody(w, { sender: ow.senderId }))).statusCode).toBe(404);
    expect((await post(createBody(w, { template: ow.templateId }))).statusCode).toBe(404);
    expect((await post(createBody(w, { cost_center_id: ow.costCenterId }))).statusCode).toBe(404);
  });

  it("answers MISSING_FILE, source 2 and the upload_url", async () => {
    const res = await post(createBody(w));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: "MISSING_FILE", source: 2, title: "Campanha de e-mail", count_emails_sent: 0 });
    expect(body.upload_url).toBe(`https://atende.test/api/email/campaigns/${body.id}/file/`);
  });
});

describe("PUT upload_url and the analysis", () => {
  it("another company cannot upload to it, the type must be text/csv, and a second file is refused", async () => {
    const { id } = (await post(createBody(w))).json() as { id: number };
    const put = (token: string, type = "text/csv", payload = "telefone;cpf;email;nome\n1;2;a@b.test;A\n") =>
      app.app.inject({ method: "PUT", url: `/api/email/campaigns/${id}/file/`, payload, headers: { authorization: `Bearer ${token}`, "content-type": type } });
    expect((await put(other.admin.token)).statusCode).toBe(404);
    expect((await put(t.supervisor.token, "application/pdf")).json()).toMatchObject({ error: "ERR_CAMPAIGN_FILE_EXTENSION" });
    expect((await put(t.supervisor.token, "text/csv", "")).json()).toMatchObject({ error: "ERR_CAMPAIGN_FILE_REQUIRED" });
    expect((await put(t.supervisor.token)).statusCode).toBe(200);
    expect((await put(t.supervisor.token)).json()).toMatchObject({ error: "ERR_EMAIL_CAMPAIGN_FILE_ALREADY_SENT" });
    expect(await waitStatus(app, id, ["ACTIVE", "ERROR"])).toBe("ACTIVE");
  });

  it("invalid addresses, duplicates (case-insensitive) and counts", async () => {
    const id = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;;ana@x.test;Ana\n2;;nao-e-email;B\n3;;ANA@x.test;C\n4;;bia@x.test;Bia\n");
    await waitStatus(app, id, ["ACTIVE"]);
    expect((await rows(id)).map((r) => [r.state, r.invalid_reason])).toEqual([
      ["pending", ""],
      ["invalid", "Endereço de e-mail inválido."],
      ["invalid", "E-mail duplicado (mesmo endereço na linha 1)."],
      ["pending", ""],
    ]);
    expect(await counters(id)).toMatchObject({ count_total: 4, count_invalid: 2 });
  });

  it("ERROR with the spec's message: separator, missing headers, a template column the file lacks", async () => {
    const cases: [string, string][] = [
      ["telefone,cpf,email\n1,2,a@b.test\n", "O arquivo deve ter colunas separadas por ponto e vírgula (;)."],
      ["telefone;email;nome\n1;a@b.test;A\n", "Faltam os seguintes cabeçalhos obrigatórios: cpf"],
      ["telefone;cpf;email\n1;2;a@b.test\n", "O arquivo não possui as colunas usadas pelo template: nome"],
    ];
    for (const [csv, message] of cases) {
      const id = await createWithFile(app, t.supervisor.token, w, csv);
      expect(await waitStatus(app, id, ["ACTIVE", "ERROR"])).toBe("ERROR");
      expect((await app.sql.one<{ error_message: string }>("SELECT error_message FROM email_campaigns WHERE id = $1", [id])).error_message).toBe(message);
    }
  });
});

describe("the analysis's worker thread", () => {
  it("a thread out of its heap ends the campaign in ERROR with the catalogue's message; the next file analyses", async () => {
    const heapMb = app.ctx.config.campaignAnalysisHeapMb;
    // far below what the thread needs to load its modules: it runs out of memory whatever the file
    app.ctx.config.campaignAnalysisHeapMb = 4;
    let id: number;
    try {
      id = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;2;a@b.test;Ana\n");
      expect(await waitStatus(app, id, ["ACTIVE", "ERROR"])).toBe("ERROR");
    } finally {
      app.ctx.config.campaignAnalysisHeapMb = heapMb;
    }
    expect((await app.sql.one<{ error_message: string }>("SELECT error_message FROM email_campaigns WHERE id = $1", [id])).error_message).toBe(CAMPAIGN_MESSAGES.analysisOutOfMemory);
    const next = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;2;a@b.test;Ana\n");
    expect(await waitStatus(app, next, ["ACTIVE", "ERROR"])).toBe("ACTIVE");
  });
});

describe("a line too long", () => {
  it("past 65,536 characters: ERROR with its number and the limit, also when parsed while a batch is stored; no thread crash logged", async () => {
    const long = `11950009999;x;a@x.com;${"x".repeat(100_000)}`;
    const cases: [string, string][] = [
      [`telefone;cpf;email;nome\n${long}\n`, "A linha 2 do arquivo passa de 65536 caracteres (verifique se há aspas sem fechamento)."],
      [
        longLineWhileStoringCsv("telefone;cpf;email;nome", (i) => `119${50000000 + i};${i};a${i}@x.test;Ana`, long),
        "A linha 2002 do arquivo passa de 65536 caracteres (verifique se há aspas sem fechamento).",
      ],
    ];
    for (const [csv, message] of cases) {
      const logged = vi.spyOn(app.ctx.log, "error");
      try {
        const id = await createWithFile(app, t.supervisor.token, w, csv);
        expect(await waitStatus(app, id, ["ACTIVE", "ERROR"])).toBe("ERROR");
        expect((await app.sql.one<{ error_message: string }>("SELECT error_message FROM email_campaigns WHERE id = $1", [id])).error_message).toBe(message);
        expect(logged.mock.calls.map((c) => c[1])).toEqual([]);
      } finally {
        logged.mockRestore();
      }
    }
  }, 30_000);
});

describe("trigger, dispatch over SMTP, tracking and unsubscribe", () => {
  it("only ACTIVE campaigns of source 2 trigger; another company's is 404", async () => {
    const { id } = (await post(createBody(w))).json() as { id: number };
    expect((await app.api("POST", `/api/email/campaigns/${id}/trigger/`, { token: t.supervisor.token })).json()).toMatchObject({
      error: "ERR_EMAIL_CAMPAIGN_NOT_TRIGGERABLE",
    });
    expect((await app.api("POST", `/api/email/campaigns/${id}/trigger/`, { token: other.admin.token })).statusCode).toBe(404);
    const api = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;;z@x.test;Z\n");
    await waitStatus(app, api, ["ACTIVE"]);
    await app.sql.exec("UPDATE email_campaigns SET source = 1 WHERE id = $1", [api]);
    expect((await app.api("POST", `/api/email/campaigns/${api}/trigger/`, { token: t.supervisor.token })).statusCode).toBe(409);
  });

  it("sends each valid row once with the headers, 550 → not delivered, 451 → retried then delivered; opens and clicks counted once", async () => {
    smtp.refuse.set("rejeita@x.test", 550);
    smtp.refuse.set("depois@x.test", 451);
    const id = await createWithFile(
      app,
      t.supervisor.token,
      w,
      "telefone;cpf;email;nome\n1;;cliente@x.test;<Maria & Cia>\n2;;rejeita@x.test;R\n3;;depois@x.test;D\n4;;ruim;X\n",
    );
    await waitStatus(app, id, ["ACTIVE"]);
    const counted = await sendsCounted(app, "email");
    const trig = await app.api("POST", `/api/email/campaigns/${id}/trigger/`, { token: t.supervisor.token });
    expect(trig.json()).toMatchObject({ status: "TRIGGERING" });
    await waitStatus(app, id, ["FINISHED"]);
    // the metrics: two accepted, one refused for good, the 451 once to be retried (GET /metrics)
    expect(await sendsCounted(app, "email")).toEqual({ sent: counted.sent + 2, failed: counted.failed + 1, retry: counted.retry + 1 });
    expect((await rows(id)).map((r) => [r.email, r.state, r.error_code])).toEqual([
      ["cliente@x.test", "delivered", null],
      ["rejeita@x.test", "not_delivered", 550],
      ["depois@x.test", "delivered", null],
      ["ruim", "invalid", null],
    ]);
    expect(await counters(id)).toMatchObject({ count_emails_sent: 3, count_emails_delivered: 2, count_emails_not_delivered: 1, count_invalid: 1 });
    expect(smtp.to("cliente@x.test")).toHaveLength(1);
    expect(smtp.to("depois@x.test")).toHaveLength(1);

    const mail = smtp.to("cliente@x.test")[0]!;
    const rowId = (await app.sql.one<{ id: string }>("SELECT id::text FROM email_campaign_recipients WHERE campaign_id = $1 AND row_number = 1", [id])).id;
    expect(mail.headers.get("from")).toBe(w.senderAddress);
    expect(decodeHeader(mail.headers.get("subject") ?? "")).toBe("Olá <Maria & Cia>");
    expect(mail.headers.get("message-id")).toBe(`<email-campaign.${id}.${rowId}@loja.test>`);
    expect(mail.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = /^<(https:\/\/atende\.test\/t\/u\/[^>]+)>$/.exec(mail.headers.get("list-unsubscribe") ?? "")?.[1];
    expect(unsubscribe).toBeTruthy();

    const html = bodyPart(mail.raw, "text/html");
    expect(html).toContain("Oi &lt;Maria &amp; Cia&gt;!");
    expect(html).toContain('href="mailto:x@loja.test"');
    expect(html).not.toContain('href="https://loja.test/oferta');
    const click = /href="(https:\/\/atende\.test\/t\/c\/[^"]+)"/.exec(html)![1]!;
    const pixel = /src="(https:\/\/atende\.test\/t\/o\/[^"]+\.gif)"/.exec(html)![1]!;
    expect(bodyPart(mail.raw, "text/plain")).toContain("Oi <Maria & Cia>!");

    const open1 = await app.app.inject({ method: "GET", url: pathOf(pixel) });
    expect(open1.statusCode).toBe(200);
    expect(open1.headers["content-type"]).toBe("image/gif");
    await app.app.inject({ method: "GET", url: pathOf(pixel) });
    expect(await counters(id)).toMatchObject({ count_emails_opened: 1, count_emails_clicked: 0 });
    // a destination outside the company's own domains: the click page names it
    const page1 = await app.app.inject({ method: "GET", url: pathOf(click) });
    expect(page1.statusCode).toBe(200);
    expect(page1.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page1.body).toContain('<span data-testid="click-destination">https://loja.test/oferta?a=1&amp;b=2</span>');
    expect(page1.body).toContain('<p class="host" data-testid="click-destination-host">loja.test</p>');
    // on the company's own domain (setting linkDomains): straight there
    expect((await app.api("PUT", "/api/settings/linkDomains", { token: t.admin.token, body: { value: "Loja.test" } })).json()).toEqual({ key: "linkDomains", value: "loja.test" });
    try {
      const go = await app.app.inject({ method: "GET", url: pathOf(click) });
      expect(go.statusCode).toBe(302);
      expect(go.headers.location).toBe("https://loja.test/oferta?a=1&b=2");
    } finally {
      await app.api("PUT", "/api/settings/linkDomains", { token: t.admin.token, body: { value: "" } });
    }
    expect(await counters(id)).toMatchObject({ count_emails_opened: 1, count_emails_clicked: 1 });

    // correctly signed for this recipient, but a URL its campaign's HTML does not have: refused, nothing counted
    const before = await counters(id);
    const rowOf3 = (await app.sql.one<{ id: string }>("SELECT id::text FROM email_campaign_recipients WHERE campaign_id = $1 AND row_number = 2", [id])).id;
    for (const url of ["https://evil.test/", "https://loja.test/oferta?a=1&b=3"]) {
      const foreign = signTrackingToken(app.ctx.config.jwtSecret, "c", [t.companyId, rowOf3, url]);
      const refused = await app.app.inject({ method: "GET", url: `/t/c/${foreign}` });
      expect(refused.statusCode, url).toBe(404);
      expect(refused.headers.location).toBeUndefined();
    }
    expect(await counters(id)).toEqual(before);

    // a click on another recipient's message counts as its open too
    const other2 = bodyPart(smtp.to("depois@x.test")[0]!.raw, "text/html");
    await app.app.inject({ method: "GET", url: pathOf(/href="(https:\/\/atende\.test\/t\/c\/[^"]+)"/.exec(other2)![1]!) });
    expect(await counters(id)).toMatchObject({ count_emails_opened: 2, count_emails_clicked: 2 });

    // forged or altered tokens are 404, and count nothing
    const forged = pathOf(click).slice(0, -3) + "AAA";
    expect((await app.app.inject({ method: "GET", url: forged })).statusCode).toBe(404);
    expect((await app.app.inject({ method: "GET", url: pathOf(click).replace("/t/c/", "/t/u/") })).statusCode).toBe(404);

    // one-click unsubscribe: GET only shows a button; POST (RFC 8058 body) opts the address out
    const page = await app.app.inject({ method: "GET", url: pathOf(unsubscribe!) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post">');
    expect(await app.sql.maybe("SELECT 1 FROM opt_outs WHERE company_id = $1 AND address = 'cliente@x.test'", [t.companyId])).toBeNull();
    const done = await app.app.inject({
      method: "POST",
      url: pathOf(unsubscribe!),
      payload: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(done.statusCode).toBe(200);
    expect(await app.sql.one("SELECT channel, source FROM opt_outs WHERE company_id = $1 AND address = 'cliente@x.test'", [t.companyId])).toEqual({
      channel: "email",
      source: "unsubscribe",
    });

    // the next campaign skips the address
    const next = await createWithFile(app, t.supervisor.token, w, "telefone;cpf;email;nome\n1;;Cliente@x.test;M\n2;;novo@x.test;N\n");
    await waitStatus(app, next, ["ACTIVE"]);
    expect((await rows(next)).map((r) => [r.state, r.invalid_reason])).toEqual([
      ["invalid", "Endereço descadastrado (opt-out)."],
      ["pending", ""],
    ]);
    // another company's list is its own
    expect(await app.sql.maybe("SELECT 1 FROM opt_outs WHERE company_id = $1", [other.companyId])).toBeNull();
  });

  it("GET /api/email/campaigns/: the spec's fields, filters, 40 a page, only the company's", async () => {
    const list = await app.api("GET", "/api/email/campaigns/?page=1&status=FINISHED", { token: t.supervisor.token });
    expect(list.statusCode).toBe(200);
    const body = list.json() as { results: Record<string, unknown>[]; count: number; next: number | null };
    expect(body.count).toBeGreaterThan(0);
    expect(body.next).toBeNull();
    expect(Object.keys(body.results[0]!)).toEqual(
      expect.arrayContaining(["id", "title", "status", "source", "created_at", "count_emails_sent", "count_emails_delivered", "count_emails_opened", "count_emails_clicked", "count_emails_not_delivered"]),
    );
    const theirs = await app.api("GET", "/api/email/campaigns/", { token: other.admin.token });
    expect((theirs.json() as { count: number }).count).toBe(0);
    expect((await app.api("GET", "/api/email/campaigns/?start_date=31/02/2026", { token: t.supervisor.token })).statusCode).toBe(400);
    expect((await app.api("GET", `/api/email/campaigns/?cost_center_id=${ow.costCenterId}`, { token: t.supervisor.token })).json()).toMatchObject({ count: 0 });
  });
});

describe("senders", () => {
  it("an admin adds one; the e-mailed signed link verifies it; then the campaign form lists it", async () => {
    expect((await app.api("POST", "/api/email/senders/", { token: t.supervisor.token, body: { email_address: "x@loja.test" } })).statusCode).toBe(403);
    const res = await app.api("POST", "/api/email/senders/", { token: t.admin.token, body: { email_address: "Vendas@Loja.test" } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email_address: "vendas@loja.test", verified: false });
    expect((await app.api("POST", "/api/email/senders/", { token: t.admin.token, body: { email_address: "vendas@loja.test" } })).json()).toMatchObject({
      error: "ERR_EMAIL_SENDER_DUPLICATE",
    });
    const listed = async () => ((await app.api("GET", "/api/email/senders/", { token: t.supervisor.token })).json() as { results: { email_address: string }[] }).results.map((r) => r.email_address);
    expect(await listed()).not.toContain("vendas@loja.test");
    const mail = smtp.to("vendas@loja.test")[0]!;
    const link = /(https:\/\/atende\.test\/t\/v\/[A-Za-z0-9_.-]+)/.exec(bodyPart(mail.raw, "text/plain"))![1]!;
    expect((await app.app.inject({ method: "GET", url: pathOf(link) })).body).toContain("Confirmar remetente");
    expect(await listed()).not.toContain("vendas@loja.test");
    expect((await app.app.inject({ method: "POST", url: pathOf(link) })).statusCode).toBe(200);
    expect(await listed()).toContain("vendas@loja.test");
    // another company's admin neither sees nor deletes it
    const id = (res.json() as { id: number }).id;
    expect((await app.api("DELETE", `/api/email/senders/${id}/`, { token: other.admin.token })).statusCode).toBe(404);
    expect((await app.api("DELETE", `/api/email/senders/${id}/`, { token: t.admin.token })).statusCode).toBe(200);
  });
});
