/**
 * Campaign CSV analysis benchmark: POST /api/campaigns with a large file, then the analysis job.
 *
 *   nice npx tsx bench/campaign-analysis.ts                                     # throw-away embedded PostgreSQL
 *   BENCH_ROWS=1000000 nice npx tsx bench/campaign-analysis.ts                  # the 1M-row memory check
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/campaign-analysis.ts   # an empty database you own
 *
 * The server is a process of its own (the bundle `npm start` runs, production settings, jobs on), so its
 * memory is its own: this process samples its resident set (/proc/<pid>/status, every 50 ms) from the
 * upload to the end of the analysis. The file (telefone;cpf;email;nome;valor, 1% duplicates and 1%
 * invalid numbers) is written to disk and uploaded from there as multipart, as the web does. Prints
 * the upload time, the analysis time and rows/s, the server's RSS before and at its peak, the slowest
 * answer to the status poll during the analysis (the server's responsiveness), and the load.
 */
import { mkdirSync, openAsBlob, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseKeyRing } from "../apps/server/src/core/secrets/key-ring.js";
import { SecretSealer } from "../apps/server/src/core/secrets/sealer.js";
import { sealStored, TEST_SECRETS_KEYS } from "../apps/server/test/factories.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { tmpDataDir } from "../apps/server/src/db/embedded.js";
import { benchDatabase } from "./database.js";
import { startServerProcess } from "./server-process.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ADMIN = { email: "admin@campaigns.test", password: "campaigns-admin-password" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** A cost center, a queue, a business with one active number and an approved two-variable template. */
async function seed(sql: Sql, companyId: number) {
  const one = <T>(text: string, params: unknown[]) => sql.one<T>(text, params);
  const costCenterId = (await one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Bench') RETURNING id", [companyId])).id;
  const queueId = (await one<{ id: number }>("INSERT INTO queues (company_id, name, color) VALUES ($1, 'Bench', '#123456') RETURNING id", [companyId])).id;
  const businessId = (await one<{ id: number }>(
    "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM Bench', 'waba-bench', '', '', '') RETURNING id",
    [companyId],
  )).id;
  await sealStored(sql, new SecretSealer(parseKeyRing(TEST_SECRETS_KEYS)), "businesses", businessId, { access_token: "t", app_secret: "s", verify_token: "v" });
  const w = await one<{ id: number }>("INSERT INTO whatsapps (company_id, name, provider, is_official, status) VALUES ($1, 'Bench', 'official', true, 'DISCONNECTED') RETURNING id", [companyId]);
  await sql.exec("INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number) VALUES ($1, $2, $3, 'pn-bench', '5511900000000')", [
    companyId,
    w.id,
    businessId,
  ]);
  const templateId = (await one<{ id: number }>(
    `INSERT INTO whatsapp_templates (company_id, business_id, name, language, category, status, components, variable_count)
     VALUES ($1, $2, 'bench', 'pt_BR', 'MARKETING', 'APPROVED', $3, 2) RETURNING id`,
    [companyId, businessId, JSON.stringify([{ type: "BODY", text: "Olá {{1}}, seu saldo é {{2}}" }])],
  )).id;
  return { costCenterId, queueId, businessId, templateId };
}

function writeCsv(file: string): number {
  const chunks: string[] = ["telefone;cpf;email;nome;valor\n"];
  let size = 0;
  const flush = () => {
    const text = chunks.join("");
    writeFileSync(file, text, { flag: size === 0 ? "w" : "a" });
    size += Buffer.byteLength(text);
    chunks.length = 0;
  };
  for (let i = 0; i < ROWS; i++) {
    const phone = i % 100 === 7 ? "123" : i % 100 === 9 ? `119${String(10000000 + i - 1).padStart(8, "0")}` : `119${String(10000000 + i).padStart(8, "0")}`;
    chunks.push(`${phone};${String(i).padStart(11, "0")};c${i}@exemplo.com;Cliente ${i};R$ ${i % 1000},00\n`);
    if (chunks.length >= 50_000) flush();
  }
  flush();
  return size;
}

async function main() {
  const dataDir = tmpDataDir("bench-campaigns");
  const db = await benchDatabase("bench-campaigns", dataDir);
  const server = await startServerProcess({ databaseUrl: db.url, dataDir, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  const { base, pid } = server;
  const pool = createPool(db.url, 2);
  const sql = new Sql(pool);
  try {
    const login = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
    const token = ((await login.json()) as { token: string }).token;
    const auth = { authorization: `Bearer ${token}` };
    const { company_id: companyId } = await sql.one<{ company_id: number }>("SELECT company_id FROM users WHERE email = $1", [ADMIN.email]);
    const w = await seed(sql, companyId);

    mkdirSync(dataDir, { recursive: true }); // with BENCH_DATABASE_URL nothing has made it yet
    const file = path.join(dataDir, "bench.csv");
    const bytes = writeCsv(file);
    const rssBefore = rssMiB(pid);
    let peak = rssBefore;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        // a server that is gone (it crashed, or the run failed and stopped it) ends the sampling, so
        // that main's own error is the one printed
        try {
          peak = Math.max(peak, rssMiB(pid));
        } catch (err) {
          console.warn(`server process ${pid} unreadable (${(err as Error).message}); RSS sampling stops`);
          return;
        }
        await sleep(50);
      }
    })();

    const started = Date.now();
    const form = new FormData();
    form.set("title", `Bench ${ROWS}`);
    form.set("costCenterId", String(w.costCenterId));
    form.append("businessIds[]", String(w.businessId));
    form.append("templateIds[]", String(w.templateId));
    form.set("queueId", String(w.queueId));
    form.set("file", await openAsBlob(file, { type: "text/csv" }), "bench.csv");
    const res = await fetch(`${base}/api/campaigns`, { method: "POST", headers: auth, body: form });
    const created = (await res.json()) as { id: number; status: string };
    if (!res.ok) throw new Error(`upload: HTTP ${res.status} ${JSON.stringify(created)}`);
    const uploaded = Date.now();
    let c = created as { id: number; status: string; countTotal?: number; countInvalid?: number; errorMessage?: string };
    // the slowest answer to the list's poll while the analysis runs: how responsive the server stays
    let slowestPoll = 0;
    while (c.status === "ANALYZING") {
      await sleep(100);
      const asked = Date.now();
      const poll = await fetch(`${base}/api/campaigns/${created.id}`, { headers: auth }).catch(async (err: unknown) => {
        // a keep-alive connection the server closed while this process was paused (the shared machine's
        // benchmarks stop other processes for minutes): one new connection, said aloud
        console.warn(`poll failed (${(err as Error).cause ?? err}); asking again on a new connection`);
        return fetch(`${base}/api/campaigns/${created.id}`, { headers: { ...auth, connection: "close" } });
      });
      c = (await poll.json()) as typeof c;
      slowestPoll = Math.max(slowestPoll, Date.now() - asked);
    }
    const done = Date.now();
    sampling = false;
    await sampler;
    const analysis = (done - uploaded) / 1000;
    console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    console.log(`file: ${ROWS} rows, ${(bytes / 1e6).toFixed(1)} MB`);
    console.log(`upload (streamed to disk): ${((uploaded - started) / 1000).toFixed(1)} s`);
    console.log(
      `analysis: ${c.status} in ${analysis.toFixed(1)} s (${Math.round(ROWS / analysis)} rows/s), total ${c.countTotal}, invalid ${c.countInvalid}${c.errorMessage ? `, ${c.errorMessage}` : ""}`,
    );
    console.log(`wall time upload → READY: ${((done - started) / 1000).toFixed(1)} s`);
    console.log(`server RSS: ${rssBefore.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB during`);
    console.log(`slowest GET /api/campaigns/:id during the analysis: ${slowestPoll} ms`);
  } finally {
    await pool.end();
    await server.stop();
    await db.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
