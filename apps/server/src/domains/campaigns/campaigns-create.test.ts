import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { ANALYSIS_GAVE_UP, analyseCampaign, analysisGaveUp } from "./analysis.js";
import { campaignForm, postCampaign, seedCampaignWorld, waitAnalysed, type CampaignWorld } from "./test-fixtures.js";
import { waitFor } from "../../../test/wait.js";

/** POST /api/campaigns (spec 3 §5, every rule and message) and the CSV analysis job. */

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let w: CampaignWorld;
let ow: CampaignWorld;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-campaigns-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  other = await buildTenant(app);
  w = await seedCampaignWorld(app, t.companyId);
  ow = await seedCampaignWorld(app, other.companyId);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const csv = (text: string, name = "lista.csv") => ({ name, data: Buffer.from(text, "utf8") });
const GOOD = "telefone;cpf;email\n11988887777;12345678909;a@x.com\n(11) 98888-6666;;\n";

async function create(parts: Parameters<typeof postCampaign>[2], token = t.supervisor.token) {
  const res = await postCampaign(app, token, parts);
  return { status: res.statusCode, body: res.json() };
}

async function analysed(text: string | Buffer, templateIds?: number[]) {
  const data = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  const res = await create(campaignForm(w, { name: "lista.csv", data }, { templateIds }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return waitAnalysed(app, t.supervisor.token, res.body.id);
}

async function recipients(id: number, query = "") {
  const res = await app.api("GET", `/api/campaigns/${id}/recipients?limit=200${query}`, { token: t.supervisor.token });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: { rowNumber: number; phone: string; state: string; invalidReason: string; cpf: string; email: string }[]; count: number };
}

describe("POST /api/campaigns: access", () => {
  it("refuses without a session, for a plain user, and answers a supervisor", async () => {
    expect((await app.api("POST", "/api/campaigns")).statusCode).toBe(401);
    expect((await create(campaignForm(w, csv(GOOD)), t.user.token)).status).toBe(403);
    expect((await create(campaignForm(w, csv(GOOD)), t.supervisor.token)).status).toBe(200);
  });
});

describe("POST /api/campaigns: spec §5 required fields, in order, with their messages", () => {
  const cases: [string, string, string][] = [
    ["costCenterId", "ERR_CAMPAIGN_COST_CENTER_REQUIRED", "O centro de custo é obrigatório."],
    ["title", "ERR_CAMPAIGN_TITLE_REQUIRED", "O título da campanha é obrigatório."],
    ["file", "ERR_CAMPAIGN_FILE_REQUIRED", "O arquivo é obrigatório."],
    ["businessIds", "ERR_CAMPAIGN_BUSINESS_REQUIRED", "O BM é obrigatório."],
    ["templateIds", "ERR_CAMPAIGN_TEMPLATE_REQUIRED", "O template é obrigatório."],
    ["queueId", "ERR_CAMPAIGN_QUEUE_REQUIRED", "A fila é obrigatória."],
  ];
  for (const [field, code, message] of cases) {
    it(`${field} missing → ${code}`, async () => {
      const parts = field === "file" ? campaignForm(w, null) : campaignForm(w, csv(GOOD), { omit: [field] });
      const res = await create(parts);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: code, message });
    });
  }

  it("a blank title counts as missing", async () => {
    const res = await create(campaignForm(w, csv(GOOD), { title: "   " }));
    expect(res.body).toMatchObject({ error: "ERR_CAMPAIGN_TITLE_REQUIRED", message: "O título da campanha é obrigatório." });
  });

  it("a request that is not multipart is refused with the file rule", async () => {
    const res = await app.api("POST", "/api/campaigns", { token: t.supervisor.token, body: { title: "x" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_CAMPAIGN_FILE_REQUIRED", message: "O arquivo é obrigatório." });
  });

  it("a bot (integrationId) is optional, must be one of the company's, and the form lists them by name", async () => {
    const res = await create(campaignForm(w, csv(GOOD), { extra: [{ name: "integrationId", value: "" }] }));
    expect(res.status).toBe(200);
    const insert = "INSERT INTO queue_integrations (company_id, type, name, project_name, url_n8n) VALUES ($1, 'webhook', $2, $2, 'https://bot.example.com') RETURNING id";
    const mine = await app.sql.one<{ id: number }>(insert, [t.companyId, "Robô de vendas"]);
    const theirs = await app.sql.one<{ id: number }>(insert, [other.companyId, "Robô alheio"]);
    const refused = await create(campaignForm(w, csv(GOOD), { extra: [{ name: "integrationId", value: String(theirs.id) }] }));
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: "ERR_NOT_FOUND", message: "Bot não encontrado." });
    const ok = await create(campaignForm(w, csv(GOOD), { extra: [{ name: "integrationId", value: String(mine.id) }] }));
    expect(ok.status).toBe(200);
    const stored = await app.sql.one<{ integration_id: number }>("SELECT integration_id FROM campaigns WHERE id = $1", [(ok.body as { id: number }).id]);
    expect(stored.integration_id).toBe(mine.id);
    const bots = await app.api("GET", "/api/campaigns/bots", { token: t.supervisor.token });
    expect(bots.json()).toEqual([{ id: mine.id, name: "Robô de vendas" }]);
    expect((await app.api("GET", "/api/campaigns/bots", { token: t.user.token })).statusCode).toBe(403);
  });
});

describe("POST /api/campaigns: the file's extension, type and size", () => {
  it("refuses a .txt file and a .csv sent with another type: 'Extensão não permitida.'", async () => {
    for (const file of [
      { name: "lista.txt", type: "text/csv", data: GOOD },
      { name: "lista.csv", type: "application/vnd.ms-excel", data: GOOD },
      { name: "lista.xlsx", type: "application/octet-stream", data: GOOD },
    ]) {
      const res = await create(campaignForm(w, file));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "ERR_CAMPAIGN_FILE_EXTENSION", message: "Extensão não permitida." });
    }
  });

  it("accepts text/csv with a charset parameter and an upper-case extension", async () => {
    const res = await create(campaignForm(w, { name: "LISTA.CSV", type: "text/csv; charset=utf-8", data: GOOD }));
    expect(res.status).toBe(200);
  });

  it("refuses a file over 104857600 bytes and leaves nothing on disk", async () => {
    const header = Buffer.from("telefone;cpf;email\n");
    const big = Buffer.alloc(104_857_601, 0x31);
    header.copy(big);
    const before = await listUploads();
    const res = await create(campaignForm(w, { name: "grande.csv", data: big }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "ERR_CAMPAIGN_FILE_TOO_LARGE", message: "O arquivo excede o tamanho máximo permitido." });
    expect(await listUploads()).toEqual(before);
  }, 60_000);
});

async function listUploads(): Promise<string[]> {
  const dir = path.join(dataDir, "campaigns", String(t.companyId));
  return existsSync(dir) ? (await readdir(dir)).filter((f) => f.startsWith("upload-")).sort() : [];
}

describe("POST /api/campaigns: everything named must be the company's, and templates and numbers the BM's", () => {
  it("a template of another BM, a rejected one, or another company's", async () => {
    for (const id of [w.otherBusinessTemplate, w.rejected, ow.noVars]) {
      const res = await create(campaignForm(w, csv(GOOD), { templateIds: [id] }));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ERR_CAMPAIGN_TEMPLATE_INVALID");
    }
  });

  it("a number of another BM, an inactive one, or another company's", async () => {
    for (const id of [w.otherNumberId, w.inactiveNumberId, ow.numberIds[0]!]) {
      const res = await create(campaignForm(w, csv(GOOD), { extra: [{ name: "phoneIds[]", value: String(id) }] }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "ERR_CAMPAIGN_NUMBER_INVALID", message: "O número selecionado não pertence ao BM ou não está ativo." });
    }
  });

  it("another company's cost center, queue or BM answers 404", async () => {
    const swap = (name: string, value: number) => [...campaignForm(w, csv(GOOD), { omit: [name] }), { name, value: String(value) }];
    for (const parts of [swap("costCenterId", ow.costCenterId), swap("queueId", ow.queueId), swap("businessIds", ow.businessId)]) {
      const res = await create(parts);
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.error).toBe("ERR_NOT_FOUND");
    }
    expect(await app.sql.one("SELECT count(*)::int AS n FROM campaigns WHERE company_id = $1", [other.companyId])).toEqual({ n: 0 });
  });

  it("no phoneIds: every active number of the BM; chosen ones: only those", async () => {
    const all = await create(campaignForm(w, csv(GOOD)));
    expect(all.body.phoneIds).toEqual([...w.numberIds].sort((a, b) => a - b));
    const one = await create(campaignForm(w, csv(GOOD), { extra: [{ name: "phoneIds[]", value: String(w.numberIds[1]) }] }));
    expect(one.body.phoneIds).toEqual([w.numberIds[1]]);
  });
});

describe("the analysis", () => {
  it("stores the file under DATA_DIR/campaigns/<company>/<campaign>.csv, goes ANALYZING → READY and deletes it", async () => {
    const res = await create(campaignForm(w, csv("telefone;cpf;email;a;b\n11988887777;1;a@x.com;x;y\n11988886666;;;x;y\n"), { templateIds: [w.noVars, w.twoVars] }));
    expect(res.body).toMatchObject({ status: "ANALYZING", name: "Campanha de teste", costCenterId: w.costCenterId, source: "WEB", templateIds: [w.noVars, w.twoVars] });
    const row = await app.sql.one<{ file_path: string; file_name: string }>("SELECT file_path, file_name FROM campaigns WHERE id = $1", [res.body.id]);
    expect(row.file_name).toBe("lista.csv");
    const done = await waitAnalysed(app, t.supervisor.token, res.body.id);
    expect(done).toMatchObject({ status: "READY", countTotal: 2, analysedRows: 2, encoding: "ascii" });
    // the file goes right after READY is committed (a crash between the two leaves READY and a file, never a READY without its rows)
    const stored = path.join(dataDir, "campaigns", String(t.companyId), `${res.body.id}.csv`);
    await waitFor(() => !existsSync(stored), 5000, "the analysed file deleted", 20);
    expect(await listUploads()).toEqual([]);
  });

  it("UTF-8 with accents: the variables keep their letters", async () => {
    const done = await analysed("telefone;cpf;email;nome;valor\n11988887777;1;a@x.com;João Ação;R$ 10,00\n", [w.twoVars]);
    expect(done).toMatchObject({ status: "READY", encoding: "utf-8", countTotal: 1, countInvalid: 0 });
    const r = await app.sql.one<{ variables: string[] }>("SELECT variables FROM campaign_recipients WHERE campaign_id = $1", [done.id]);
    expect(r.variables).toEqual(["João Ação", "R$ 10,00"]);
  });

  it("ISO-8859-1 with accents is read as such", async () => {
    const latin1 = Buffer.from("telefone;cpf;email;nome;cidade\n11988887777;1;a@x.com;José;São Paulo\n", "latin1");
    const done = await analysed(latin1, [w.twoVars]);
    expect(done).toMatchObject({ status: "READY", encoding: "iso-8859-1", countTotal: 1 });
    const r = await app.sql.one<{ variables: string[] }>("SELECT variables FROM campaign_recipients WHERE campaign_id = $1", [done.id]);
    expect(r.variables).toEqual(["José", "São Paulo"]);
  });

  it("UTF-8 with a byte-order mark: the first header is still telefone", async () => {
    const done = await analysed(`\uFEFF${GOOD}`);
    expect(done).toMatchObject({ status: "READY", encoding: "utf-8", countTotal: 2 });
  });

  it("Windows-1252 quotes and UTF-16 are refused with 'Codificação inválida: X. Permitidos: ...'", async () => {
    const cp1252 = Buffer.concat([Buffer.from("telefone;cpf;email;nome\n11988887777;1;a@x.com;"), Buffer.from([0x93, 0x41, 0x94]), Buffer.from("\n")]);
    expect(await analysed(cp1252)).toMatchObject({
      status: "ERROR",
      errorMessage: "Codificação inválida: windows-1252. Permitidos: utf-8, iso-8859-1, ascii",
      countTotal: 0,
    });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(GOOD, "utf16le")]);
    expect(await analysed(utf16)).toMatchObject({ status: "ERROR", errorMessage: "Codificação inválida: utf-16le. Permitidos: utf-8, iso-8859-1, ascii" });
  });

  it("a header not separated by ';'", async () => {
    const done = await analysed("telefone,cpf,email\n11988887777,1,a@x.com\n");
    expect(done).toMatchObject({ status: "ERROR", errorMessage: "O arquivo deve ter colunas separadas por ponto e vírgula (;)." });
  });

  it("missing required headers are named", async () => {
    const done = await analysed("telefone;nome\n11988887777;Ana\n");
    expect(done).toMatchObject({ status: "ERROR", errorMessage: "Faltam os seguintes cabeçalhos obrigatórios: cpf, email" });
    expect((await recipients(done.id)).count).toBe(0);
  });

  it("a header with fewer variable columns than the template needs", async () => {
    const done = await analysed("telefone;cpf;email;nome\n11988887777;1;a@x.com;Ana\n", [w.twoVars]);
    expect(done).toMatchObject({ status: "ERROR", errorMessage: "O arquivo possui 1 colunas de variáveis, enquanto o template possui 2 variáveis." });
  });

  it("a file with only the header", async () => {
    expect(await analysed("telefone;cpf;email\n")).toMatchObject({ status: "ERROR", errorMessage: "O arquivo não possui linhas de dados." });
  });

  it("invalid numbers, duplicates and rows missing variables are rows 'invalid' with their reason", async () => {
    const text = [
      "telefone;cpf;email;nome;valor",
      "11988887777;111;a@x.com;Ana;10",
      "abc;222;b@x.com;Bia;20",
      "+55 (11) 98888-7777;333;c@x.com;Caio;30",
      "1234;444;d@x.com;Dani;40",
      "21977776666;555;e@x.com;Edu;",
      "21977776666;666;f@x.com;Fabi;60",
      "",
      "5531966665555;777;g@x.com;Gil;70",
    ].join("\r\n");
    const done = await analysed(text, [w.twoVars]);
    expect(done).toMatchObject({ status: "READY", countTotal: 7, countInvalid: 4 });
    const rows = (await recipients(done.id)).data.map((r) => [r.rowNumber, r.phone, r.state, r.invalidReason]);
    expect(rows).toEqual([
      [1, "5511988887777", "pending", ""],
      [2, "abc", "invalid", "Número de telefone inválido."],
      [3, "5511988887777", "invalid", "Número duplicado (mesmo número na linha 1)."],
      [4, "1234", "invalid", "Número de telefone inválido."],
      [5, "5521977776666", "invalid", "A linha possui 1 variáveis preenchidas; o template precisa de 2."],
      [6, "5521977776666", "pending", ""],
      [7, "5531966665555", "pending", ""],
    ]);
    expect((await recipients(done.id, "&state=invalid")).count).toBe(4);
  });

  it("templates rotate over the data rows in the order chosen", async () => {
    const done = await analysed("telefone;cpf;email;a;b\n11988880001;;;x;y\n11988880002;;;x;y\n11988880003;;;x;y\n", [w.twoVars, w.noVars]);
    const ids = await app.sql.many<{ template_id: number }>("SELECT template_id FROM campaign_recipients WHERE campaign_id = $1 ORDER BY row_number", [done.id]);
    expect(ids.map((r) => r.template_id)).toEqual([w.twoVars, w.noVars, w.twoVars]);
  });

  it("a 10,000-row file: every row stored once, in batches", async () => {
    const lines = ["telefone;cpf;email;nome;valor"];
    for (let i = 0; i < 10_000; i++) lines.push(`119${String(70000000 + i)};${i};p${i}@x.com;Nome ${i};${i}`);
    lines.push("11970000000;dup;dup@x.com;Dup;1");
    const started = Date.now();
    const done = await analysed(lines.join("\n"), [w.twoVars]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(done).toMatchObject({ status: "READY", countTotal: 10_001, countInvalid: 1, analysedRows: 10_001 });
    const n = await app.sql.one("SELECT count(*)::int AS n, count(DISTINCT row_number)::int AS d FROM campaign_recipients WHERE campaign_id = $1", [done.id]);
    expect(n).toEqual({ n: 10_001, d: 10_001 });
  }, 30_000);

  it("a crash mid-analysis leaves no half campaign: the retry starts over and ends with each row once", async () => {
    const dir = path.join(dataDir, "campaigns", String(t.companyId));
    await mkdir(dir, { recursive: true });
    const lines = ["telefone;cpf;email"];
    for (let i = 0; i < 5000; i++) lines.push(`119${String(60000000 + i)};${i};`);
    // a campaign whose analysis job is not queued: this test plays the job's attempts itself
    const id = (await app.sql.one<{ id: number }>(
      "INSERT INTO campaigns (company_id, name, cost_center_id, business_id, queue_id, status) VALUES ($1, 'Crash', $2, $3, $4, 'ANALYZING') RETURNING id",
      [t.companyId, w.costCenterId, w.businessId, w.queueId],
    )).id;
    const file = path.join(dir, `${id}.csv`);
    await writeFile(file, lines.join("\n"));
    await app.sql.exec("UPDATE campaigns SET file_path = $2 WHERE id = $1", [id, file]);
    const payload = { companyId: t.companyId, campaignId: id };
    await expect(
      analyseCampaign(app.ctx, payload, {
        afterBatch: (n) => {
          if (n === 2) throw new Error("process killed");
        },
      }),
    ).rejects.toThrow("process killed");
    const half = await app.sql.one<{ status: string; rows: number }>(
      "SELECT status, (SELECT count(*)::int FROM campaign_recipients WHERE campaign_id = $1) AS rows FROM campaigns WHERE id = $1",
      [id],
    );
    expect(half).toEqual({ status: "ANALYZING", rows: 4000 });
    await analyseCampaign(app.ctx, payload);
    const done = await app.sql.one("SELECT status, count_total, analysed_rows, (SELECT count(*)::int FROM campaign_recipients WHERE campaign_id = $1) AS rows FROM campaigns WHERE id = $1", [id]);
    expect(done).toEqual({ status: "READY", count_total: 5000, analysed_rows: 5000, rows: 5000 });
    expect(existsSync(file)).toBe(false);
    // a late duplicate attempt changes nothing
    await analyseCampaign(app.ctx, payload);
    expect(await app.sql.one("SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1", [id])).toEqual({ n: 5000 });
  }, 30_000);

  it("an analysis whose every attempt failed ends in ERROR with a message, its half rows and file gone", async () => {
    const dir = path.join(dataDir, "campaigns", String(t.companyId));
    await mkdir(dir, { recursive: true });
    const id = (await app.sql.one<{ id: number }>(
      "INSERT INTO campaigns (company_id, name, cost_center_id, business_id, queue_id, status) VALUES ($1, 'Sem sorte', $2, $3, $4, 'ANALYZING') RETURNING id",
      [t.companyId, w.costCenterId, w.businessId, w.queueId],
    )).id;
    const file = path.join(dir, `${id}.csv`);
    await writeFile(file, "telefone;cpf;email\n11960000000;1;\n");
    await app.sql.exec("UPDATE campaigns SET file_path = $2 WHERE id = $1", [id, file]);
    const payload = { companyId: t.companyId, campaignId: id };
    await expect(analyseCampaign(app.ctx, payload, { afterBatch: () => { throw new Error("disk gone"); } })).rejects.toThrow("disk gone");
    await analysisGaveUp(app.ctx, payload);
    expect(await app.sql.one("SELECT status, error_message, (SELECT count(*)::int FROM campaign_recipients WHERE campaign_id = $1) AS rows FROM campaigns WHERE id = $1", [id])).toEqual({
      status: "ERROR",
      error_message: ANALYSIS_GAVE_UP,
      rows: 0,
    });
    expect(existsSync(file)).toBe(false);
    // a campaign that finished meanwhile is left as it is
    await app.sql.exec("UPDATE campaigns SET status = 'READY', error_message = '' WHERE id = $1", [id]);
    await analysisGaveUp(app.ctx, payload);
    expect((await app.sql.one<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [id])).status).toBe("READY");
  });
});
