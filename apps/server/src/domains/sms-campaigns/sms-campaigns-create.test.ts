import { CAMPAIGN_MESSAGES } from "@atende/shared";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { longLineWhileStoringCsv } from "../campaigns/test-fixtures.js";
import { createSms, readySms, seedSmsWorld, smsForm, smsTestConfig, uploadCsv, waitSms, type SmsWorld } from "./test-fixtures.js";

/** POST /api/sms/campaigns/ (spec 3 §5, every SMS rule and message), the PUT of the CSV and its analysis. */

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let w: SmsWorld;
let ow: SmsWorld;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-sms-"));
  // nothing is triggered here; the dispatcher still runs (it only finds no RUNNING campaign)
  app = await createTestApp({ dataDir, ...smsTestConfig() });
  t = await buildTenant(app);
  other = await buildTenant(app);
  w = await seedSmsWorld(app, t.companyId);
  ow = await seedSmsWorld(app, other.companyId);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const GOOD = "telefone;cpf;email;nome;vencimento\n11988887777;12345678909;a@x.com;Ana;10/12\n(11) 98888-6666;;;Bia;11/12\n";

describe("access", () => {
  it("refuses without a session and for a plain user; answers a supervisor", async () => {
    expect((await app.api("POST", "/api/sms/campaigns/", { body: smsForm(w) })).statusCode).toBe(401);
    expect((await createSms(app, t.user.token, smsForm(w))).status).toBe(403);
    expect((await createSms(app, t.supervisor.token, smsForm(w))).status).toBe(200);
  });

  it("answers 404 for another company's campaign on every route, the upload included", async () => {
    const mine = await createSms(app, t.supervisor.token, smsForm(w));
    const id = mine.body.id as number;
    const tok = other.supervisor.token;
    expect((await app.api("GET", `/api/sms/campaigns/${id}/`, { token: tok })).statusCode).toBe(404);
    expect((await uploadCsv(app, tok, `/api/sms/campaigns/${id}/file/`, GOOD)).status).toBe(404);
    expect((await app.api("POST", `/api/sms/campaigns/${id}/trigger/`, { token: tok })).statusCode).toBe(404);
    expect((await app.api("PATCH", `/api/sms/campaigns/${id}/pause/`, { token: tok })).statusCode).toBe(404);
    expect((await app.api("PATCH", `/api/sms/campaigns/${id}/resume/`, { token: tok })).statusCode).toBe(404);
    expect((await app.api("POST", `/api/sms/campaigns/${id}/cancel/`, { token: tok })).statusCode).toBe(404);
    // still waiting for its file: the other company's PUT did not touch it
    expect((await app.api("GET", `/api/sms/campaigns/${id}/`, { token: t.supervisor.token })).json().status).toBe("MISSING_FILE");
  });

  it("refuses another company's cost center and template as not found", async () => {
    const cc = await createSms(app, t.supervisor.token, smsForm(w, { cost_center_id: ow.costCenterId }));
    expect(cc.status).toBe(404);
    expect(cc.body.message).toBe("Centro de custo não encontrado.");
    const tpl = await createSms(app, t.supervisor.token, smsForm(w, { template: ow.twoVars }));
    expect(tpl.status).toBe(404);
    expect(tpl.body.message).toBe("Template não encontrado.");
  });
});

describe("spec 3 §5 rules, in order, with their messages", () => {
  const cases: [string, Record<string, unknown>, number, string, string][] = [
    ["cost center", { cost_center_id: undefined }, 400, "ERR_CAMPAIGN_COST_CENTER_REQUIRED", "O centro de custo é obrigatório."],
    ["title", { title: "  " }, 400, "ERR_CAMPAIGN_TITLE_REQUIRED", "O título da campanha é obrigatório."],
    ["file", { filename: "" }, 400, "ERR_CAMPAIGN_FILE_REQUIRED", "O arquivo é obrigatório."],
    ["file extension", { filename: "lista.xlsx" }, 400, "ERR_CAMPAIGN_FILE_EXTENSION", "Extensão não permitida."],
    ["template", { template: undefined }, 400, "ERR_SMS_TEMPLATE_REQUIRED", "O template é obrigatório."],
    ["start hour when the end is filled", { end_hour: "18:00" }, 400, "ERR_SMS_HOURS_INVALID", "A hora de início é obrigatória se a hora de término for preenchida."],
    ["end hour when the start is filled", { start_hour: "08:00" }, 400, "ERR_SMS_HOURS_INVALID", "A hora de término é obrigatória se a hora de início for preenchida."],
    ["a real hour", { start_hour: "25:00", end_hour: "18:00" }, 400, "ERR_SMS_HOURS_INVALID", "Hora inválida (HH:mm)."],
    ["a matrix naming the template's variables", { matrix_variables: [{ template_variable: "x", file_index: 3 }] }, 400, "ERR_SMS_MATRIX_INVALID", "A variável x não existe no template."],
    ["matrix columns from index 3", { matrix_variables: [{ template_variable: "nome", file_index: 1 }] }, 400, "ERR_SMS_MATRIX_INVALID", "As variáveis do template vêm das colunas a partir da 4ª (índice 3)."],
    ["a future schedule", { schedule_date: "2020-01-01T10:00" }, 400, "ERR_VALIDATION", "A data do agendamento deve ser futura."],
  ];
  for (const [name, change, status, code, message] of cases) {
    it(`requires ${name}`, async () => {
      const body = { ...smsForm(w), ...change };
      for (const k of Object.keys(change)) if (change[k] === undefined) delete body[k as keyof typeof body];
      const res = await createSms(app, t.supervisor.token, body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toBe(code);
      expect(res.body.message).toBe(message);
    });
  }

  it("checks cost center before title before file before template (all missing: the cost center's message)", async () => {
    const res = await createSms(app, t.supervisor.token, {});
    expect(res.body.message).toBe("O centro de custo é obrigatório.");
    const res2 = await createSms(app, t.supervisor.token, { cost_center_id: w.costCenterId, title: "x" });
    expect(res2.body.message).toBe("O arquivo é obrigatório.");
  });

  it("answers MISSING_FILE with its upload_url, the options, tags and hours as sent", async () => {
    const res = await createSms(app, t.supervisor.token, smsForm(w, { tags: ["vip", "sp"], start_hour: "08:00", end_hour: "20:30", use_whitelist: true, use_shortener_url: true }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "MISSING_FILE",
      upload_url: `/api/sms/campaigns/${res.body.id}/file/`,
      tags: ["vip", "sp"],
      start_hour: "08:00",
      end_hour: "20:30",
      use_whitelist: true,
      use_blacklist_nexus: false,
      use_shortener_url: true,
      total: 0,
      source: "WEB",
    });
  });
});

describe("the upload (PUT upload_url) and the analysis", () => {
  it("refuses a body that is not text/csv with the spec's message and keeps waiting for the file", async () => {
    const c = await createSms(app, t.supervisor.token, smsForm(w));
    const res = await uploadCsv(app, t.supervisor.token, c.body.upload_url, GOOD, "application/vnd.ms-excel");
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Extensão não permitida.");
    const empty = await uploadCsv(app, t.supervisor.token, c.body.upload_url, "");
    expect(empty.body.message).toBe("O arquivo é obrigatório.");
    expect((await app.api("GET", `/api/sms/campaigns/${c.body.id}/`, { token: t.supervisor.token })).json().status).toBe("MISSING_FILE");
  });

  it("takes the file once: ANALYZING then READY with the counts; a second PUT is refused", async () => {
    const c = await createSms(app, t.supervisor.token, smsForm(w));
    const up = await uploadCsv(app, t.supervisor.token, c.body.upload_url, GOOD);
    expect(up.status).toBe(200);
    expect(["ANALYZING", "READY"]).toContain(up.body.status);
    const done = await waitSms(app, t.supervisor.token, c.body.id);
    expect(done).toMatchObject({ status: "READY", total: 2, invalid: 0, upload_url: null });
    const again = await uploadCsv(app, t.supervisor.token, c.body.upload_url, GOOD);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("ERR_SMS_CAMPAIGN_FILE_RECEIVED");
  });

  const errors: [string, string, string][] = [
    ["the separator", "telefone,cpf,email\n11988887777,1,a@x.com\n", "O arquivo deve ter colunas separadas por ponto e vírgula (;)."],
    ["the required headers", "telefone;nome;vencimento\n11988887777;Ana;1\n", "Faltam os seguintes cabeçalhos obrigatórios: cpf, email"],
    ["as many variable columns as the template has variables", "telefone;cpf;email;nome\n11988887777;1;a@x.com;Ana\n", "O arquivo possui 1 colunas de variáveis, enquanto o template possui 2 variáveis."],
    ["data lines", "telefone;cpf;email;nome;vencimento\n", "O arquivo não possui linhas de dados."],
  ];
  for (const [name, csv, message] of errors) {
    it(`ends ERROR without ${name}`, async () => {
      const done = await readySms(app, t.supervisor.token, w, csv);
      expect(done.status).toBe("ERROR");
      expect(done.error_message).toBe(message);
    });
  }

  it("ends ERROR with the catalogue's message when the analysis's thread runs out of its heap (not retried, not left 'Em Análise')", async () => {
    const heapMb = app.ctx.config.campaignAnalysisHeapMb;
    // far below what the thread needs to load its modules: it runs out of memory whatever the file
    app.ctx.config.campaignAnalysisHeapMb = 4;
    try {
      const done = await readySms(app, t.supervisor.token, w, "telefone;cpf;email;nome;vencimento\n11988887777;1;a@x.com;Ana;10/12\n");
      expect(done).toMatchObject({ status: "ERROR", error_message: CAMPAIGN_MESSAGES.analysisOutOfMemory });
    } finally {
      app.ctx.config.campaignAnalysisHeapMb = heapMb;
    }
    expect(await readySms(app, t.supervisor.token, w, "telefone;cpf;email;nome;vencimento\n11988887777;1;a@x.com;Ana;10/12\n")).toMatchObject({ status: "READY" });
  });

  it("a line past 65,536 characters ends ERROR with its number and the limit, also when parsed while a batch is stored; no thread crash logged", async () => {
    const long = `11950009999;x;a@x.com;${"x".repeat(100_000)};1`;
    const cases: [string, string][] = [
      [`telefone;cpf;email;nome;vencimento\n${long}\n`, "A linha 2 do arquivo passa de 65536 caracteres (verifique se há aspas sem fechamento)."],
      [
        longLineWhileStoringCsv("telefone;cpf;email;nome;vencimento", (i) => `119${50000000 + i};${i};;Ana;1`, long),
        "A linha 2002 do arquivo passa de 65536 caracteres (verifique se há aspas sem fechamento).",
      ],
    ];
    for (const [csv, message] of cases) {
      const logged = vi.spyOn(app.ctx.log, "error");
      try {
        const done = await readySms(app, t.supervisor.token, w, csv);
        expect(done).toMatchObject({ status: "ERROR", error_message: message });
        expect(logged.mock.calls.map((c) => c[1])).toEqual([]);
      } finally {
        logged.mockRestore();
      }
    }
  }, 30_000);

  it("refuses an encoding outside utf-8, iso-8859-1 and ascii", async () => {
    const c = await createSms(app, t.supervisor.token, smsForm(w, { template: w.noVars }));
    await uploadCsv(app, t.supervisor.token, c.body.upload_url, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("telefone;cpf;email\n", "utf16le")]));
    const done = await waitSms(app, t.supervisor.token, c.body.id);
    expect(done.error_message).toBe("Codificação inválida: utf-16le. Permitidos: utf-8, iso-8859-1, ascii");
  });

  it("reads ISO-8859-1 files", async () => {
    const c = await createSms(app, t.supervisor.token, smsForm(w, { template: w.oneVar }));
    await uploadCsv(app, t.supervisor.token, c.body.upload_url, Buffer.from("telefone;cpf;email;nome\n11988887777;1;a@x.com;João\n", "latin1"));
    expect(await waitSms(app, t.supervisor.token, c.body.id)).toMatchObject({ status: "READY", total: 1, invalid: 0 });
  });

  it("counts invalid phones, duplicates and opted-out numbers as invalid, with their reasons", async () => {
    await app.sql.exec("INSERT INTO opt_outs (company_id, channel, address, source) VALUES ($1, 'sms', '5511977776666', 'admin')", [t.companyId]);
    const csv = "telefone;cpf;email;nome;vencimento\n11988887777;;;A;1\nabc;;;B;2\n(11) 98888-7777;;;C;3\n11977776666;;;D;4\n";
    const done = await readySms(app, t.supervisor.token, w, csv);
    expect(done).toMatchObject({ status: "READY", total: 4, invalid: 3 });
    const rows = await app.sql.many<{ row_number: number; state: string; invalid_reason: string }>(
      "SELECT row_number, state, invalid_reason FROM sms_campaign_recipients WHERE campaign_id = $1 ORDER BY row_number",
      [done.id],
    );
    expect(rows).toEqual([
      { row_number: 1, state: "pending", invalid_reason: "" },
      { row_number: 2, state: "invalid", invalid_reason: "Número de telefone inválido." },
      { row_number: 3, state: "invalid", invalid_reason: "Número duplicado (mesmo número na linha 1)." },
      { row_number: 4, state: "invalid", invalid_reason: "Número descadastrado (pediu para não receber mais mensagens)." },
    ]);
  });

  it("GET …/invalid-rows/ lists the invalid rows in file order with their reasons, for the company's supervisors only", async () => {
    const csv = "telefone;cpf;email;nome;vencimento\n11988880001;;;A;1\nxyz;;;B;2\n11988880001;;;C;3\n";
    const done = await readySms(app, t.supervisor.token, w, csv);
    const url = `/api/sms/campaigns/${done.id}/invalid-rows/`;
    const res = await app.api("GET", url, { token: t.supervisor.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      count: 2,
      results: [
        { id: expect.any(Number), row_number: 2, phone: "xyz", email: "", reason: "Número de telefone inválido." },
        { id: expect.any(Number), row_number: 3, phone: expect.any(String), email: "", reason: "Número duplicado (mesmo número na linha 1)." },
      ],
    });
    expect((await app.api("GET", `${url}?page=2&page_size=1`, { token: t.supervisor.token })).json()).toMatchObject({ count: 2, results: [{ row_number: 3 }] });
    expect((await app.api("GET", url, { token: t.user.token })).statusCode).toBe(403);
    const theirs = await app.api("GET", url, { token: other.admin.token });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: "ERR_SMS_CAMPAIGN_NOT_FOUND" });
  });

  it("whitelist: only numbers among the company's contacts; blacklist: not numbers that failed permanently before", async () => {
    await app.sql.exec("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Ana', '5511955554444')", [t.companyId]);
    const csv = "telefone;cpf;email;nome;vencimento\n11955554444;;;A;1\n11955553333;;;B;2\n";
    const white = await readySms(app, t.supervisor.token, w, csv, { use_whitelist: true });
    expect(white).toMatchObject({ total: 2, invalid: 1 });
    // a permanent failure of 11955553333 in an earlier campaign of this company
    await app.sql.exec("UPDATE sms_campaign_recipients SET state = 'failed', error_permanent = true WHERE campaign_id = $1 AND phone = '5511955553333'", [white.id]);
    expect(await readySms(app, t.supervisor.token, w, csv, { use_blacklist_nexus: true })).toMatchObject({ total: 2, invalid: 1 });
    expect(await readySms(app, t.supervisor.token, w, csv)).toMatchObject({ total: 2, invalid: 0 });
    // another company's lists do not count
    expect(await readySms(app, other.supervisor.token, ow, csv, { use_blacklist_nexus: true })).toMatchObject({ total: 2, invalid: 0 });
  });

  it("a schedule date makes the analysed campaign SCHEDULED", async () => {
    const at = new Date(Date.now() + 3600_000).toISOString();
    const done = await readySms(app, t.supervisor.token, w, GOOD, { schedule_date: at });
    expect(done.status).toBe("SCHEDULED");
    expect(done.schedule_date).toBe(new Date(at).toISOString());
  });
});
