/**
 * SMS campaign benchmark (issue 16): the real server sending an SMS campaign through the Twilio client
 * to the fake Twilio (test/fake-twilio, built from Twilio's docs), each in a process of its own, the
 * fake timing every message as it arrives.
 *
 *   nice npx tsx bench/sms-campaign.ts                                      # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/sms-campaign.ts    # an empty database you own
 *
 * Knobs: BENCH_RECIPIENTS (100000), BENCH_RATE (500 msg/s, SMS_RATE_PER_SECOND), BENCH_CRASH_RECIPIENTS
 * (20000), BENCH_KILL_AFTER (messages before the kill -9, 5000), BENCH_FINISH_LIMIT_S (how long the main run
 * may take, default three times its ideal time + 60 s).
 *
 * Reports: the measured rate (messages − 1 over first-to-last arrival at the fake), the largest count
 * in any one-second window of arrivals, the load average. Then the crash run: the sending server is
 * killed with SIGKILL mid-campaign and started again, while a second server (never killed, no SMS
 * engine) receives the signed status callbacks: numbers written to twice (from the fake's log) and
 * rows unaccounted for once the callbacks arrived.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { migrate } from "../apps/server/src/db/migrate.js";
import { freePort } from "../apps/server/src/db/embedded.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { rateFigures } from "../apps/server/src/domains/campaign-dispatch/test-factory.js";
import { startFakeTwilioProcess } from "../apps/server/test/fake-twilio/process.js";
import { benchDatabase } from "./database.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const CRASH_RECIPIENTS = Number(process.env.BENCH_CRASH_RECIPIENTS ?? 20_000);
const KILL_AFTER = Number(process.env.BENCH_KILL_AFTER ?? 5000);
const ACCOUNT = `AC${"b".repeat(32)}`;
const TOKEN = "bench-auth-token";
const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function main() {
  const db = await benchDatabase("sms-campaign");
  const pool = createPool(db.url, 4);
  const sql = new Sql(pool);
  await migrate(pool);
  const fake = await startFakeTwilioProcess({ accountSid: ACCOUNT, authToken: TOKEN, callbackDelayMs: 200, finalStatusOnly: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-bench-sms-"));
  const servers: ServerProcess[] = [];
  const twilio = { SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: ACCOUNT, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: "+15005550006", TWILIO_API_BASE_URL: fake.url, SMS_RATE_PER_SECOND: String(RATE) };
  const server = async (env: Record<string, string>) => {
    const s = await startServerProcess({ databaseUrl: db.url, dataDir, env: { ...twilio, CAMPAIGN_DISPATCH: "false", ...env } });
    servers.push(s);
    return s;
  };
  try {
    const plan = await sql.one<{ id: number }>("INSERT INTO plans (name, connections, users, queues) VALUES ('Bench', 10, 10, 10) RETURNING id");
    const { id: companyId } = await sql.one<{ id: number }>(
      "INSERT INTO companies (name, email, plan_id, due_date) VALUES ('Bench Co', 'bench@bench.test', $1, '2099-12-31') RETURNING id",
      [plan.id],
    );
    const cc = await sql.one<{ id: number }>("INSERT INTO cost_centers (company_id, name) VALUES ($1, 'Bench') RETURNING id", [companyId]);
    const tpl = await sql.one<{ id: number; content: string }>(
      "INSERT INTO sms_templates (company_id, title, content) VALUES ($1, 'Bench', 'Ola {{nome}}, sua fatura vence amanha.') RETURNING id, content",
      [companyId],
    );
    const campaign = async (total: number, first: number) => {
      const c = await sql.one<{ id: number }>(
        `INSERT INTO sms_campaigns (company_id, title, status, cost_center_id, template_id, template_content, matrix_variables, file_name)
         VALUES ($1, 'Bench', 'READY', $2, $3, $4, '[{"template_variable":"nome","file_index":3}]', 'bench.csv') RETURNING id`,
        [companyId, cc.id, tpl.id, tpl.content],
      );
      await sql.exec(
        `INSERT INTO sms_campaign_recipients (company_id, campaign_id, row_number, phone, variables, state)
         SELECT $1, $2, g, '55119' || lpad(($4 + g)::text, 8, '0'), ARRAY['', '', '', 'Cliente ' || g], 'pending' FROM generate_series(1, $3) AS g`,
        [companyId, c.id, total, first],
      );
      return c.id;
    };
    const run = (id: number) => sql.exec("UPDATE sms_campaigns SET status = 'RUNNING', started_at = now() WHERE id = $1", [id]);
    const finished = async (id: number, limitMs: number) => {
      const until = Date.now() + limitMs;
      while ((await sql.one<{ status: string }>("SELECT status FROM sms_campaigns WHERE id = $1", [id])).status !== "FINISHED") {
        if (Date.now() > until) throw new Error(`campaign ${id} did not finish`);
        await sleep(250);
      }
    };

    // the status callbacks go to a server that is never killed and runs no SMS engine; PUBLIC_URL is
    // its own address (Twilio signs the URL it calls)
    const port = await freePort();
    const receiverUrl = `http://127.0.0.1:${port}`;
    await server({ PORT: String(port), PUBLIC_URL: receiverUrl, SMS_DISPATCH: "false" });
    const env = { SMS_DISPATCH: "true", RUN_JOBS: "false", SMS_LEASE_SECONDS: "3", SMS_RECONCILE_SECONDS: "30", PUBLIC_URL: receiverUrl };

    let sender = await server(env);
    const id = await campaign(RECIPIENTS, 0);
    const t0 = Date.now();
    await run(id);
    await finished(id, Number(process.env.BENCH_FINISH_LIMIT_S ?? 0) * 1000 || (RECIPIENTS / RATE) * 1000 * 3 + 60_000);
    const arrivals = await fake.arrivals();
    const f = rateFigures(arrivals.map(([at]) => at));
    log(`arrivals per second at the fake: the first 5 ${f.perSecond.slice(0, 5).join(", ")}; the last 5 ${f.perSecond.slice(-5).join(", ")}`);
    log(
      `rate ${RATE}/s, ${RECIPIENTS} recipients: ${arrivals.length} messages (${new Set(arrivals.map(([, to]) => to)).size} numbers) in ${((Date.now() - t0) / 1000).toFixed(1)} s (start to FINISHED); ` +
        `measured ${f.rate.toFixed(2)}/s (${((f.rate / RATE - 1) * 100).toFixed(2)} %), max in any 1-s window of arrivals ${f.maxWindow}; load average ${load()}`,
    );
    {
      // how long after the fake saw a message its answer was recorded: what the pacing's window waits (core/send-pacer.ts)
      const arrived = new Map(arrivals.map(([at, to]) => [to.slice(1), at]));
      const rows = await sql.many<{ phone: string; at: number }>(
        "SELECT phone, (extract(epoch FROM sent_at) * 1000)::float8 AS at FROM sms_campaign_recipients WHERE campaign_id = $1 AND sent_at IS NOT NULL",
        [id],
      );
      const ms = rows.flatMap((r) => (arrived.has(r.phone) ? [r.at - arrived.get(r.phone)!] : [])).sort((a, b) => a - b);
      const p = (q: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(0) : "-");
      log(`answer latency (the row's recorded answer − its arrival at the fake): p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, p99 ${p(0.99)} ms (${ms.length} messages)`);
    }
    await fake.settled();
    await sleep(2000);
    const c = await sql.one("SELECT count_total, count_triggered, count_delivered, count_not_delivered FROM sms_campaigns WHERE id = $1", [id]);
    log("counters after the callbacks:", JSON.stringify(c));

    // crash: kill -9 of the sending process mid-run, then a new one
    const crashId = await campaign(CRASH_RECIPIENTS, 50_000_000);
    const before = await fake.count();
    await run(crashId);
    while ((await fake.count()) - before < KILL_AFTER) await sleep(50);
    process.kill(sender.pid, "SIGKILL");
    // a killed process is not stopped again at the end (its exit already happened)
    servers.splice(servers.indexOf(sender), 1);
    log(`crash run: kill -9 after ${(await fake.count()) - before} messages; load average ${load()}`);
    await sleep(1000);
    sender = await server(env);
    await finished(crashId, 300_000);
    const settled = await fake.settled();
    await sleep(2000);
    const all = (await fake.arrivals()).slice(before);
    const accepted = new Set(all.map(([, to]) => to.slice(1)));
    const rows = await sql.many<{ phone: string; state: string; error_message: string }>("SELECT phone, state, error_message FROM sms_campaign_recipients WHERE campaign_id = $1", [crashId]);
    const unaccounted = rows.filter((r) => (accepted.has(r.phone) ? r.state !== "delivered" : !(r.state === "failed" && r.error_message.startsWith("outcome not confirmed")))).length;
    log(
      `crash run: ${all.length} messages to ${accepted.size} numbers → ${all.length - accepted.size} numbers written to twice; ` +
        `${CRASH_RECIPIENTS - accepted.size} rows failed "outcome not confirmed"; ${unaccounted} rows unaccounted once the callbacks arrived ` +
        `(${settled.failures} callbacks refused); load average ${load()}`,
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
