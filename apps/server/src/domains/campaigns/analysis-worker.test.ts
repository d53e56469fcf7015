import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { analyseCampaign } from "./analysis.js";
import { stopWorkerThreads } from "../../core/worker-thread.js";
import { campaignForm, longLineWhileStoringCsv, postCampaign, seedCampaignWorld, waitAnalysed, type CampaignWorld } from "./test-fixtures.js";

/**
 * The analysis's worker thread (analysis-thread.ts): its heap cap, a thread that dies, a line too
 * long for it, and the server's shutdown stopping it; the real thread against the real database.
 */

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let w: CampaignWorld;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-analysis-worker-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  w = await seedCampaignWorld(app, t.companyId);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const csv = (text: string) => ({ name: "lista.csv", data: Buffer.from(text, "utf8") });
const campaignFile = (id: number) => path.join(dataDir, "campaigns", String(t.companyId), `${id}.csv`);

async function created(text: string): Promise<number> {
  const res = await postCampaign(app, t.supervisor.token, campaignForm(w, csv(text)));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }).id;
}

/** A campaign whose job is not queued (ANALYZING, its file on disk): the test plays the job's attempts itself. */
async function analysingCampaign(text: string): Promise<{ id: number; file: string }> {
  const id = (await app.sql.one<{ id: number }>(
    "INSERT INTO campaigns (company_id, name, cost_center_id, business_id, queue_id, status) VALUES ($1, 'Worker', $2, $3, $4, 'ANALYZING') RETURNING id",
    [t.companyId, w.costCenterId, w.businessId, w.queueId],
  )).id;
  const file = campaignFile(id);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await app.sql.exec("UPDATE campaigns SET file_path = $2 WHERE id = $1", [id, file]);
  return { id, file };
}

const stored = (id: number) =>
  app.sql.one<{ status: string; error_message: string; rows: number }>(
    "SELECT status, error_message, (SELECT count(*)::int FROM campaign_recipients WHERE campaign_id = $1) AS rows FROM campaigns WHERE id = $1",
    [id],
  );

describe("the campaign analysis's worker thread", () => {
  it("out of its heap: the campaign ends in ERROR with the catalogue's message at once (not retried), and the server goes on", async () => {
    const heapMb = app.ctx.config.campaignAnalysisHeapMb;
    // far below what the thread needs to load its modules: it runs out of memory whatever the file
    app.ctx.config.campaignAnalysisHeapMb = 4;
    let id: number;
    try {
      id = await created("telefone;cpf;email\n11988887777;1;a@x.com\n");
      const done = await waitAnalysed(app, t.supervisor.token, id);
      expect(done).toMatchObject({
        status: "ERROR",
        errorMessage: "Não foi possível analisar o arquivo: a análise excedeu o limite de memória do servidor. Avise o administrador do sistema.",
        countTotal: 0,
      });
    } finally {
      app.ctx.config.campaignAnalysisHeapMb = heapMb;
    }
    expect(await stored(id)).toMatchObject({ status: "ERROR", rows: 0 });
    // the file goes right after the ERROR is committed (the list may show ERROR a moment before)
    for (let i = 0; i < 50 && existsSync(campaignFile(id)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(campaignFile(id))).toBe(false);
    // one attempt, which completes (once the handler has returned): pg-boss does not run the same file again
    const job = () =>
      app.sql.many<{ state: string; retry_count: number }>("SELECT state, retry_count FROM pgboss.job WHERE name = 'campaigns.analyse' AND (data->>'campaignId')::int = $1", [id]);
    for (let i = 0; i < 100 && (await job())[0]?.state === "active"; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await job()).toEqual([{ state: "completed", retry_count: 0 }]);

    // the same server analyses the next file with its usual heap
    const next = await waitAnalysed(app, t.supervisor.token, await created("telefone;cpf;email\n11988887777;1;a@x.com\n11988886666;2;\n"));
    expect(next).toMatchObject({ status: "READY", countTotal: 2, countInvalid: 0 });
  }, 40_000);

  it("a line past 65,536 characters (a quote never closed) is refused with its number, the rows before it removed", async () => {
    const lines = ["telefone;cpf;email;nome"];
    // more than one 256 KB read before it: some batches are stored before the long line is parsed
    for (let i = 0; i < 10_000; i++) lines.push(`119${String(50000000 + i)};${i};;Nome ${i}`);
    // line 10,002: a quote opened and never closed, then 100 KB without a line break
    lines.push(`11950009999;x;;"Nome sem fim ${"x".repeat(100_000)}`);
    const { id, file } = await analysingCampaign(lines.join("\n"));
    const stages: number[] = [];
    await analyseCampaign(app.ctx, { companyId: t.companyId, campaignId: id }, { afterBatch: async () => void stages.push((await stored(id)).rows) });
    // rows were stored before the long line was reached, and are gone with the ERROR
    expect(stages.length).toBeGreaterThan(0);
    expect(stages[0]).toBe(2000);
    expect(await stored(id)).toEqual({
      status: "ERROR",
      error_message: "A linha 10002 do arquivo passa de 65536 caracteres (verifique se há aspas sem fechamento).",
      rows: 0,
    });
    expect(existsSync(file)).toBe(false);
  }, 30_000);

  it("a line past 65,536 characters parsed while a batch is being stored: its number and the limit, no thread crash logged", async () => {
    const text = longLineWhileStoringCsv("telefone;cpf;email;nome", (i) => `119${50000000 + i};${i};;Nome ${i}`, `11950009999;x;;${"x".repeat(100_000)}`);
    const { id } = await analysingCampaign(text);
    const logged = vi.spyOn(app.ctx.log, "error");
    try {
      await analyseCampaign(app.ctx, { companyId: t.companyId, campaignId: id });
      expect(logged.mock.calls.map((c) => c[1])).toEqual([]);
    } finally {
      logged.mockRestore();
    }
    expect(await stored(id)).toEqual({
      status: "ERROR",
      error_message: "A linha 2002 do arquivo passa de 65536 caracteres (verifique se há aspas sem fechamento).",
      rows: 0,
    });
  }, 30_000);

  it("the server closing stops a running analysis at once: its attempt fails (pg-boss retries it) and the retry starts over from the file", async () => {
    const lines = ["telefone;cpf;email"];
    for (let i = 0; i < 5000; i++) lines.push(`119${String(40000000 + i)};${i};`);
    const { id, file } = await analysingCampaign(lines.join("\n"));
    const payload = { companyId: t.companyId, campaignId: id };
    await expect(
      analyseCampaign(app.ctx, payload, {
        afterBatch: async (n) => {
          if (n === 1) await stopWorkerThreads(app.ctx);
        },
      }),
    ).rejects.toThrow("campaign analysis stopped: the server is closing");
    // stopped while the first batch's rows were the only ones stored; the file stays for the retry
    expect(await stored(id)).toEqual({ status: "ANALYZING", error_message: "", rows: 2000 });
    expect(existsSync(file)).toBe(true);

    await analyseCampaign(app.ctx, payload);
    expect(await stored(id)).toEqual({ status: "READY", error_message: "", rows: 5000 });
    expect(existsSync(file)).toBe(false);
  }, 30_000);
});
