/**
 * Campaign dispatch benchmark (issue 14): the real server sending a WhatsApp template campaign to the
 * fake Graph API, each in a process of its own, the fake timing every send as it arrives.
 *
 *   nice npx tsx bench/campaign-dispatch.ts                                # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/campaign-dispatch.ts    # an empty database you own
 *
 * Knobs: BENCH_RECIPIENTS (10000), BENCH_RATES ("80,1000": msg/s per number, one run each),
 * BENCH_KILL_AFTER (sends before the kill -9 in the crash run, 3000), BENCH_CRASH=0 (no crash run: to
 * profile the servers with BENCH_SERVER_NODE_ARGS, whose profiles are written when they stop).
 *
 * Reports per rate: the measured rate (sends − 1 over first-to-last arrival), the largest count of
 * sends in any one-second window, and the load average. Then the crash run at the highest rate: the
 * dispatching server is killed with SIGKILL mid-run and started again, while a second server process
 * (never killed; it runs no dispatcher) receives the status webhooks: phones messaged twice (from the
 * fake's log) and rows unaccounted for once the statuses arrived.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseKeyRing } from "../apps/server/src/core/secrets/key-ring.js";
import { SecretSealer } from "../apps/server/src/core/secrets/sealer.js";
import { sealStored, TEST_SECRETS_KEYS } from "../apps/server/test/factories.js";
import { migrate } from "../apps/server/src/db/migrate.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { buildCampaign, phones, rateFigures } from "../apps/server/src/domains/campaign-dispatch/test-factory.js";
import { fakePhone, fakeTemplate } from "../apps/server/test/fake-graph/builders.js";
import { startFakeGraphProcess } from "../apps/server/test/fake-graph/process.js";
import { benchDatabase } from "./database.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const RATES = (process.env.BENCH_RATES ?? "80,1000").split(",").map(Number);
const KILL_AFTER = Number(process.env.BENCH_KILL_AFTER ?? 3000);
const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function main() {
  const db = await benchDatabase("campaign-dispatch");
  const pool = createPool(db.url, 4);
  const sql = new Sql(pool);
  await migrate(pool);
  const fake = await startFakeGraphProcess();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-bench-dispatch-"));
  const servers: ServerProcess[] = [];
  const server = async (env: Record<string, string>) => {
    const s = await startServerProcess({ databaseUrl: db.url, dataDir, env: { WHATSAPP_GRAPH_URL: fake.url, ...env } });
    servers.push(s);
    return s;
  };
  try {
    const plan = await sql.one<{ id: number }>("INSERT INTO plans (name, connections, users, queues) VALUES ('Bench', 10, 10, 10) RETURNING id");
    const company = await sql.one<{ id: number }>(
      "INSERT INTO companies (name, email, plan_id, due_date) VALUES ('Bench Co', 'bench@bench.test', $1, '2099-12-31') RETURNING id",
      [plan.id],
    );
    const companyId = company.id;
    const business = await sql.one<{ id: number }>(
      "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM', $2, '', '', '') RETURNING id",
      [companyId, fake.wabaId],
    );
    // stored as the server stores them: sealed under the key ring the server process gets
    await sealStored(sql, new SecretSealer(parseKeyRing(TEST_SECRETS_KEYS)), "businesses", business.id, {
      access_token: fake.accessToken,
      app_secret: fake.appSecret,
      verify_token: "verify",
    });
    await fake.setTemplates([fakeTemplate("pedido_enviado")]);
    const fakePhones = RATES.map((_, i) => fakePhone({ digits: `552199990${String(1000 + i)}`, messaging_limit_tier: "TIER_UNLIMITED" }));
    await fake.setPhones(fakePhones);
    const numbers: number[] = [];
    for (const [i, p] of fakePhones.entries()) {
      const w = await sql.one<{ id: number }>(
        "INSERT INTO whatsapps (company_id, name, provider, is_official, status) VALUES ($1, $2, 'official', true, 'CONNECTED') RETURNING id",
        [companyId, `Oficial ${i}`],
      );
      const n = await sql.one<{ id: number }>(
        `INSERT INTO official_numbers (company_id, whatsapp_id, business_id, phone_number_id, phone_number, display_phone_number, messaging_limit, throughput_per_second)
         VALUES ($1, $2, $3, $4, $5, $6, 'TIER_UNLIMITED', $7) RETURNING id`,
        [companyId, w.id, business.id, p.id, p.display_phone_number.replace(/\D/g, ""), p.display_phone_number, RATES[i]],
      );
      numbers.push(n.id);
    }
    const template = await sql.one<{ id: number }>(
      `INSERT INTO whatsapp_templates (company_id, business_id, template_id, name, language, category, status, components, variable_count)
       VALUES ($1, $2, '1', 'pedido_enviado', 'pt_BR', 'MARKETING', 'APPROVED', $3::jsonb, 2) RETURNING id`,
      [companyId, business.id, JSON.stringify(fakeTemplate("pedido_enviado").components)],
    );
    const campaign = (numberId: number, start: number) =>
      buildCampaign(sql, { companyId, businessId: business.id, templateIds: [template.id], numberIds: [numberId], phones: phones(RECIPIENTS, start) });
    const run = (id: number) => sql.exec("UPDATE campaigns SET status = 'RUNNING', started_at = now() WHERE id = $1", [id]);
    const status = async (id: number) => (await sql.one<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [id])).status;
    const finished = async (id: number, limitMs: number) => {
      const until = Date.now() + limitMs;
      while ((await status(id)) !== "FINISHED") {
        if (Date.now() > until) throw new Error(`campaign ${id} did not finish`);
        await sleep(250);
      }
    };

    // the status webhooks go to a server process that is never killed and runs no dispatcher
    const receiver = await server({ CAMPAIGN_DISPATCH: "false" });
    await fake.setStatusPlan({ callbackUrl: `${receiver.base}/api/webhooks/whatsapp/${business.id}`, stepMs: 200, perDelivery: 100 });
    const env = { CAMPAIGN_DISPATCH: "true", RUN_JOBS: "false", CAMPAIGN_LEASE_SECONDS: "3", CAMPAIGN_RECONCILE_SECONDS: "30" };

    let dispatcher = await server(env);
    for (const [i, rate] of RATES.entries()) {
      const id = await campaign(numbers[i]!, i * RECIPIENTS);
      const t0 = Date.now();
      await run(id);
      await finished(id, (RECIPIENTS / rate) * 1000 * 3 + 60_000);
      const sends = (await fake.sends()).filter((s) => s.phoneNumberId === fakePhones[i]!.id);
      const f = rateFigures(sends.map((s) => s.at));
      log(
        `rate ${rate}/s, ${RECIPIENTS} recipients: ${sends.length} sends in ${((Date.now() - t0) / 1000).toFixed(1)} s (start to FINISHED); ` +
          `measured ${f.rate.toFixed(1)}/s (${((f.rate / rate - 1) * 100).toFixed(2)} %), max in any 1-s window ${f.maxWindow}; load average ${load()}`,
      );
      log(`sends per second at the fake: the first 5 ${f.perSecond.slice(0, 5).join(", ")}; the last 5 ${f.perSecond.slice(-5).join(", ")}`);
    }

    if (process.env.BENCH_CRASH === "0") return;
    // crash: kill -9 of the dispatching process mid-run, then a new one
    const rate = Math.max(...RATES);
    const i = RATES.indexOf(rate);
    await sql.exec("DELETE FROM campaign_recipients WHERE official_number_id = $1", [numbers[i]]);
    const id = await campaign(numbers[i]!, 5 * RECIPIENTS);
    const before = (await fake.sends()).length;
    await run(id);
    while ((await fake.sends()).length - before < KILL_AFTER) await sleep(50);
    process.kill(dispatcher.pid, "SIGKILL");
    const atKill = (await fake.sends()).length - before;
    log(`crash run: kill -9 after ${atKill} sends; load average ${load()}`);
    await sleep(1000);
    dispatcher = await server(env);
    await finished(id, 300_000);
    const settled = await fake.statusesSettled();
    for (;;) {
      const pending = await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM webhook_events WHERE status <> 'processed'");
      if (pending.n === 0) break;
      await sleep(250);
    }
    const phoneSet = new Set(phones(RECIPIENTS, 5 * RECIPIENTS));
    const sends = (await fake.sends()).filter((s) => phoneSet.has(s.to));
    const accepted = new Set(sends.map((s) => s.to));
    const rows = await sql.many<{ phone: string; state: string; error_message: string }>(
      "SELECT phone, state, error_message FROM campaign_recipients WHERE campaign_id = $1",
      [id],
    );
    const unaccounted = rows.filter((r) =>
      accepted.has(r.phone) ? r.state !== "read" : !(r.state === "failed" && r.error_message.startsWith("outcome not confirmed")),
    ).length;
    log(
      `crash run: ${sends.length} sends to ${accepted.size} phones → ${sends.length - accepted.size} phones messaged twice; ` +
        `${RECIPIENTS - accepted.size} rows failed "outcome not confirmed"; ${unaccounted} rows unaccounted once ${settled.deliveries} status deliveries arrived ` +
        `(${settled.refusals} refused); load average ${load()}`,
    );
  } finally {
    for (const s of servers.reverse()) await s.stop().catch((err: unknown) => log("a server did not stop cleanly", err));
    await fake.close();
    await pool.end();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
