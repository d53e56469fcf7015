/**
 * E-mail campaign benchmark (issue 16): the real server (the `npm start` bundle, a process of its own)
 * sending an e-mail campaign through its pooled SMTP driver to a local SMTP server (`smtp-server`, in
 * this process), which timestamps every message's MAIL FROM as it arrives.
 *
 *   nice npx tsx bench/email-campaign.ts                                  # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/email-campaign.ts   # an empty database you own
 *
 * Knobs: BENCH_RECIPIENTS (100000), BENCH_RATE (EMAIL_RATE_PER_SECOND, 500), BENCH_CRASH_RECIPIENTS
 * (20000), BENCH_KILL_AFTER (e-mails before the kill -9, 5000), BENCH_SMTP_CONNECTIONS (the pool, 20),
 * BENCH_FINISH_LIMIT_S (how long the 100k run may take, default twice its ideal time + 60 s).
 *
 * Reports: the measured rate (messages − 1 over first-to-last arrival) against the configured one, the
 * largest count of arrivals in any one-second window, the load average; then the crash run: the
 * dispatching server killed with SIGKILL mid-campaign and started again: addresses e-mailed twice
 * (from the SMTP server's log) and rows neither delivered nor unconfirmed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { migrate } from "../apps/server/src/db/migrate.js";
import { createPool, Sql } from "../apps/server/src/db/sql.js";
import { rateFigures } from "../apps/server/src/domains/campaign-dispatch/test-factory.js";
import { FakeSmtp } from "../apps/server/test/fake-smtp/server.js";
import { benchDatabase } from "./database.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const CRASH_RECIPIENTS = Number(process.env.BENCH_CRASH_RECIPIENTS ?? 20_000);
const KILL_AFTER = Number(process.env.BENCH_KILL_AFTER ?? 5000);
const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** p50 / p95 / p99 / max of a list of milliseconds. */
function percentiles(ms: number[]): string {
  if (!ms.length) return "no samples";
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(0);
  return `p50 ${at(50)} ms, p95 ${at(95)} ms, p99 ${at(99)} ms, max ${s.at(-1)!.toFixed(0)} ms (${s.length} messages)`;
}

async function main() {
  const db = await benchDatabase("email-campaign");
  const pool = createPool(db.url, 4);
  const sql = new Sql(pool);
  await migrate(pool);
  const smtp = await FakeSmtp.start({ light: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-bench-email-"));
  const servers: ServerProcess[] = [];
  const env = {
    CAMPAIGN_SMTP_URL: smtp.url,
    EMAIL_RATE_PER_SECOND: String(RATE),
    EMAIL_SMTP_CONNECTIONS: process.env.BENCH_SMTP_CONNECTIONS ?? "20",
    EMAIL_DISPATCH: "true",
    CAMPAIGN_DISPATCH: "false",
    RUN_JOBS: "false",
    EMAIL_LEASE_SECONDS: "3",
    EMAIL_RECONCILE_SECONDS: "20",
    EMAIL_POLL_MS: "250",
    PUBLIC_URL: "https://atende.bench",
  };
  const server = async () => {
    const s = await startServerProcess({ databaseUrl: db.url, dataDir, env });
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
    const sender = await sql.one<{ id: number }>("INSERT INTO email_senders (company_id, email_address, verified_at) VALUES ($1, 'news@loja.test', now()) RETURNING id", [companyId]);
    const html = '<html><body><h1>Olá {{nome}}</h1><p>Ofertas da semana para você.</p><a href="https://loja.test/ofertas">Ver ofertas</a></body></html>';
    const template = await sql.one<{ id: number }>("INSERT INTO email_templates (company_id, title, subject, content) VALUES ($1, 'Bench', 'Ofertas para {{nome}}', $2) RETURNING id", [
      companyId,
      html,
    ]);
    const campaign = async (count: number, start: number) => {
      const c = await sql.one<{ id: number }>(
        `INSERT INTO email_campaigns (company_id, title, status, cost_center_id, sender_id, from_address, template_id, subject, html, variables, count_total)
         VALUES ($1, 'Bench', 'ACTIVE', $2, $3, 'news@loja.test', $4, 'Ofertas para {{nome}}', $5, '{nome}', $6) RETURNING id`,
        [companyId, cc.id, sender.id, template.id, html, count],
      );
      await sql.exec(
        `INSERT INTO email_campaign_recipients (company_id, campaign_id, row_number, email, variables, state)
         SELECT $1, $2, n - $3, 'cliente' || n || '@bench.test', ARRAY['Cliente ' || n], 'pending' FROM generate_series($3 + 1, $3 + $4) AS n`,
        [companyId, c.id, start, count],
      );
      return c.id;
    };
    const trigger = (id: number) => sql.exec("UPDATE email_campaigns SET status = 'TRIGGERING', started_at = now() WHERE id = $1", [id]);
    const status = async (id: number) => (await sql.one<{ status: string }>("SELECT status FROM email_campaigns WHERE id = $1", [id])).status;
    const finished = async (id: number, limitMs: number) => {
      const until = Date.now() + limitMs;
      while ((await status(id)) !== "FINISHED") {
        if (Date.now() > until) throw new Error(`campaign ${id} did not finish`);
        await sleep(500);
      }
    };

    /** How long after the server saw a message its answer was recorded: what the pacing's window waits (core/send-pacer.ts). */
    const latencies = async (id: number) => {
      const arrived = new Map(smtp.received.map((m) => [m.to[0]!.toLowerCase(), m.at]));
      const rows = await sql.many<{ email: string; at: number }>(
        "SELECT lower(email) AS email, (extract(epoch FROM sent_at) * 1000)::float8 AS at FROM email_campaign_recipients WHERE campaign_id = $1 AND sent_at IS NOT NULL",
        [id],
      );
      return percentiles(rows.flatMap((r) => (arrived.has(r.email) ? [r.at - arrived.get(r.email)!] : [])));
    };

    let dispatcher = await server();
    const id = await campaign(RECIPIENTS, 0);
    const t0 = Date.now();
    await trigger(id);
    await finished(id, Number(process.env.BENCH_FINISH_LIMIT_S ?? 0) * 1000 || (RECIPIENTS / RATE) * 1000 * 2 + 60_000);
    const f = rateFigures(smtp.received.map((m) => m.at));
    log(
      `rate ${RATE}/s, ${RECIPIENTS} e-mails: ${smtp.received.length} received in ${((Date.now() - t0) / 1000).toFixed(1)} s (trigger to FINISHED); ` +
        `measured ${f.rate.toFixed(1)}/s (${((f.rate / RATE - 1) * 100).toFixed(2)} %), max arrivals in any 1-s window ${f.maxWindow}; load average ${load()}`,
    );

    log(`answer latency (the row's recorded answer − its MAIL FROM at the server): ${await latencies(id)}`);

    // crash: kill -9 of the dispatching process mid-campaign, then a new one
    const before = smtp.received.length;
    const crash = await campaign(CRASH_RECIPIENTS, RECIPIENTS);
    await trigger(crash);
    while (smtp.received.length - before < KILL_AFTER) await sleep(20);
    process.kill(dispatcher.pid, "SIGKILL");
    // a killed server has nothing left to stop (its stop() would wait for an exit already past)
    servers.splice(servers.indexOf(dispatcher), 1);
    const atKill = smtp.received.length - before;
    log(`crash run: kill -9 after ${atKill} e-mails; load average ${load()}`);
    await sleep(1000);
    dispatcher = await server();
    await finished(crash, 300_000);
    const to = smtp.received.slice(before).flatMap((m) => m.to);
    const distinct = new Set(to);
    const rows = await sql.many<{ state: string; n: number }>("SELECT state, count(*)::int AS n FROM email_campaign_recipients WHERE campaign_id = $1 GROUP BY state", [crash]);
    const by = Object.fromEntries(rows.map((r) => [r.state, r.n]));
    log(
      `crash run: ${to.length} e-mails to ${distinct.size} addresses → ${to.length - distinct.size} addresses e-mailed twice; rows ${JSON.stringify(by)}; ` +
        `${CRASH_RECIPIENTS - (by.delivered ?? 0) - (by.unconfirmed ?? 0)} rows neither delivered nor unconfirmed; load average ${load()}`,
    );
  } finally {
    for (const s of servers.reverse()) await s.stop().catch((err: unknown) => log("a server did not stop cleanly", err));
    await smtp.close();
    await pool.end();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
