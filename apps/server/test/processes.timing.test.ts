import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { channel } from "@atende/shared";
import { createPool, Sql } from "../src/db/sql.js";
import { buildCampaign, buildSandboxBusiness, phones } from "../src/domains/campaign-dispatch/test-factory.js";
import { buildCompany, buildUser, TEST_PASSWORD } from "./factories.js";
import { createTestDatabase, dropTestDatabase } from "./helper.js";
import { redisServerInstalled, sleep, startRedis, startServer, until, type ServerOptions, type ServerProcess } from "./server-processes.js";

/**
 * Process roles with processes, not promises (docs/architecture.md "Process roles and fencing"): two
 * web processes (A, B) and one worker, each a real server process (the built bundle) with its ROLE, on
 * one PostgreSQL database and a Redis this test starts. In the timing pass (one file at a time): four
 * node processes beside the rest of the suite on two cores would measure the suite, not the takeover.
 */
const REQUIRED = process.env.CI === "true";
const available = redisServerInstalled();

it.runIf(REQUIRED)("has redis-server to start (CI=true; .ci/run installs it)", () => {
  expect(available, "redis-server is not installed").toBe(true);
});


describe.skipIf(!available)("two web processes and a worker on one database and one Redis", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let sql: Sql;
  let pool: ReturnType<typeof createPool>;
  let dataDir: string;
  let databaseUrl: string;
  let opts: Omit<ServerOptions, "name" | "role">;
  const servers: ServerProcess[] = [];
  const sockets: Socket[] = [];
  let companyId: number;
  let token: string;
  let wa: number;
  let a: ServerProcess;
  let b: ServerProcess;
  let worker: ServerProcess;

  const start = async (name: string, role: "web" | "worker") => {
    const s = await startServer({ ...opts, name, role });
    servers.push(s);
    return s;
  };
  const call = async (s: ServerProcess, method: string, url: string, body?: unknown) => {
    const res = await fetch(`${s.base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {}, text };
  };
  const ownerOf = async (whatsappId: number) =>
    (await sql.maybe<{ owner_id: string }>("SELECT owner_id FROM connection_owners WHERE whatsapp_id = $1", [whatsappId]))?.owner_id ?? null;
  const pidOf = (ownerId: string | null) => (ownerId ? Number(ownerId.split(":")[1]) : null);

  beforeAll(async () => {
    const t0 = Date.now();
    const step = (what: string) => console.log(`setup: ${what} at ${Date.now() - t0} ms (load ${os.loadavg()[0]!.toFixed(1)})`);
    redis = await startRedis();
    step("redis");
    databaseUrl = await createTestDatabase();
    pool = createPool(databaseUrl, 3);
    sql = new Sql(pool);
    dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-processes-"));
    opts = {
      databaseUrl,
      redisUrl: redis.url,
      dataDir,
      env: { CAMPAIGN_LEASE_SECONDS: "3", CAMPAIGN_POLL_MS: "200", CAMPAIGN_RECONCILE_SECONDS: "4", CAMPAIGN_SANDBOX_STEP_MS: "200" },
    };
    // the worker first: it applies nothing (the database is migrated) and seeds the platform company
    worker = await start("worker-1", "worker");
    step("worker");
    [a, b] = await Promise.all([start("web-a", "web"), start("web-b", "web")]);
    step("web processes");
    companyId = await buildCompany(sql, { plan: { users: 10, connections: 10, queues: 10 } });
    const admin = await buildUser(sql, companyId, { profile: "admin", name: "Admin" });
    const login = await fetch(`${a.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: admin.email, password: TEST_PASSWORD }),
    });
    token = ((await login.json()) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(servers.map((s) => s.kill9()));
    await pool?.end();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
    await redis?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("a session started on web A runs on the worker; a customer's message arriving on A reaches an agent's socket on B", { timeout: 60_000 }, async () => {
    const created = await call(a, "POST", "/api/whatsapp", { name: "Sandbox", provider: "sandbox", queueIds: [] });
    expect(created.status, created.text).toBe(200);
    wa = created.json.id as number;
    const scan = await call(a, "POST", `/api/sandbox/${wa}/scan`);
    expect(scan.status, scan.text).toBe(200);
    expect(pidOf(await ownerOf(wa))).toBe(worker.pid);

    const socket = connect(b.base, { auth: { token }, transports: ["websocket"] });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    const received = new Promise<{ action: string; message: { body: string } }>((resolve) =>
      socket.on(channel.appMessage(companyId), (p: { action: string; message: { body: string } }) => {
        if (p.action === "create" && p.message.body === "chegou em A") resolve(p);
      }),
    );
    const inbound = await call(a, "POST", `/api/sandbox/${wa}/inbound`, { number: "5531988880001", name: "Cliente", body: "chegou em A" });
    expect(inbound.status, inbound.text).toBe(200);
    await expect(Promise.race([received, sleep(10_000).then(() => null)])).resolves.toMatchObject({ message: { body: "chegou em A" } });
  });

  it("a schedule saved on web B is sent once (only the worker runs jobs)", { timeout: 60_000 }, async () => {
    const contact = await sql.one<{ id: number }>("SELECT id FROM contacts WHERE company_id = $1 AND number = '5531988880001'", [companyId]);
    const saved = await call(b, "POST", "/api/schedules", {
      body: "lembrete agendado",
      contactId: contact.id,
      whatsappId: wa,
      sendAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect(saved.status, saved.text).toBe(200);
    const id = saved.json.id as number;
    await until("the schedule sent", async () => (await sql.one<{ status: string }>("SELECT status FROM schedules WHERE id = $1", [id])).status === "ENVIADA", 20_000);
    await sleep(1000); // a second send (by a web process's job worker, were there one) would show by now
    const onPhone = await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_messages WHERE whatsapp_id = $1 AND body = 'lembrete agendado'", [wa]);
    expect(onPhone.n).toBe(1);
  });

  it("kill -9 of the worker mid-campaign: a new worker takes the sessions and the dispatch over within 30 s; nothing sent twice", { timeout: 90_000 }, async () => {
    const sb = await buildSandboxBusiness(sql, companyId);
    await sql.exec("UPDATE businesses SET sandbox_failure_rate = 0 WHERE id = $1", [sb.businessId]);
    await sql.exec("UPDATE official_numbers SET throughput_per_second = 50 WHERE id = $1", [sb.numberId]);
    const total = 300;
    const campaignId = await buildCampaign(sql, { companyId, businessId: sb.businessId, templateIds: [sb.templateId], phones: phones(total, 5000) });
    const started = await call(a, "POST", `/api/campaigns/${campaignId}/start`);
    expect(started.status, started.text).toBe(200);
    const sentSoFar = async () =>
      (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sandbox_messages WHERE simulated_row_id IN (SELECT id FROM campaign_recipients WHERE campaign_id = $1)", [campaignId])).n;
    await until("100 campaign messages sent", async () => (await sentSoFar()) >= 100, 30_000);

    await worker.kill9();
    const killedAt = Date.now();
    const atKill = await sentSoFar();
    expect(atKill).toBeLessThan(total);
    const next = await start("worker-2", "worker");

    // the sessions: the new worker holds the connection and a customer's message on A goes through it
    await until("the session taken over", async () => pidOf(await ownerOf(wa)) === next.pid, 30_000 - (Date.now() - killedAt));
    const sessionAfterMs = Date.now() - killedAt;
    const inbound = await call(a, "POST", `/api/sandbox/${wa}/inbound`, { number: "5531988880002", name: "Cliente 2", body: "depois da troca" });
    expect(inbound.status, inbound.text).toBe(200);
    // the dispatch: sending again
    await until("the dispatch resumed", async () => (await sentSoFar()) > atKill, 30_000 - (Date.now() - killedAt));
    const dispatchAfterMs = Date.now() - killedAt;
    console.log(`takeover after kill -9: session ${sessionAfterMs} ms, dispatch ${dispatchAfterMs} ms (load ${os.loadavg()[0]!.toFixed(2)})`);
    expect(sessionAfterMs).toBeLessThan(30_000);
    expect(dispatchAfterMs).toBeLessThan(30_000);
    worker = next;

    await until(
      "the campaign finished",
      async () => (await sql.one<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [campaignId])).status === "FINISHED",
      60_000,
    );
    // nothing sent twice: one phone message per recipient row, one per phone
    const twice = await sql.one<{ rows: number; phones: number }>(
      `SELECT (SELECT count(*) FROM (SELECT simulated_row_id FROM sandbox_messages WHERE simulated_row_id IN (SELECT id FROM campaign_recipients WHERE campaign_id = $1)
                                      GROUP BY 1 HAVING count(*) > 1) x)::int AS rows,
              (SELECT count(*) FROM (SELECT number FROM sandbox_messages WHERE simulated_row_id IN (SELECT id FROM campaign_recipients WHERE campaign_id = $1)
                                      GROUP BY 1 HAVING count(*) > 1) y)::int AS phones`,
      [campaignId],
    );
    expect(twice).toEqual({ rows: 0, phones: 0 });
    // nothing lost: every row ended; a row on the phone is sent (reconciled from its statuses even when its
    // answer died with the worker), the others are the few claimed ahead of the crash: failed "not confirmed"
    const states = await sql.many<{ state: string; on_phone: boolean; n: number }>(
      `SELECT r.state, EXISTS (SELECT 1 FROM sandbox_messages s WHERE s.simulated_row_id = r.id) AS on_phone, count(*)::int AS n
         FROM campaign_recipients r WHERE r.campaign_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [campaignId],
    );
    console.log("campaign rows after the takeover:", JSON.stringify(states));
    expect(states.filter((s) => s.state === "pending" || s.state === "sending")).toEqual([]);
    expect(states.filter((s) => s.on_phone && s.state === "failed")).toEqual([]);
    const unconfirmed = states.filter((s) => !s.on_phone).reduce((n, s) => n + s.n, 0);
    expect(unconfirmed).toBeLessThanOrEqual(50); // at most a second of sends was claimed ahead of the crash
    expect(states.reduce((n, s) => n + s.n, 0)).toBe(total);
  });

  it("rolling restart (SIGTERM, one process at a time) under a stream of messages: none lost, none twice; sockets told to reconnect", { timeout: 120_000 }, async () => {
    const first = await call(a, "POST", `/api/sandbox/${wa}/inbound`, { number: "5531988880003", name: "Cliente 3", body: "início" });
    expect(first.status, first.text).toBe(200);
    const ticketId = first.json.ticketId as number;
    expect((await call(a, "PUT", `/api/tickets/${ticketId}`, { status: "open" })).status).toBe(200);

    // the load balancer: the web processes up now, tried in turn; a refused connection or a 503/409
    // answer (draining, the connection between two owners) is tried again on the next one
    let webs = [a, b];
    let turn = 0;
    const viaBalancer = async (url: string, body: unknown) => {
      for (let attempt = 0; attempt < 200; attempt++) {
        const target = webs[turn++ % webs.length]!;
        const res = await call(target, "POST", url, body).catch((err: unknown) => ({ status: 0, json: {}, text: String(err) }));
        if (res.status === 200) return res;
        // refused before anything was stored: ERR_WAPP_NOT_INITIALIZED (nobody runs the connection for a
        // moment) and ERR_WAPP_OWNER_UNREACHABLE (no answer: retried only for the agent's sends below,
        // which are stored by the web process and never duplicated)
        if (![0, 409, 503].includes(res.status)) throw new Error(`${url}: ${res.status} ${res.text}`);
        await sleep(100);
      }
      throw new Error(`${url}: never accepted`);
    };
    let streaming = true;
    const inboundSent: string[] = [];
    const agentSent: string[] = [];
    const stream = (async () => {
      for (let i = 0; streaming; i++) {
        const inBody = `cliente ${i}`;
        await viaBalancer(`/api/sandbox/${wa}/inbound`, { number: "5531988880003", name: "Cliente 3", body: inBody });
        inboundSent.push(inBody);
        const outBody = `agente ${i}`;
        await viaBalancer(`/api/messages/${ticketId}`, { body: outBody, sign: false });
        agentSent.push(outBody);
        await sleep(50);
      }
    })();

    // a socket on A: A's shutdown closes its transport, which socket.io's client answers by reconnecting
    const onA = connect(a.base, { auth: { token }, transports: ["websocket"], reconnection: false });
    sockets.push(onA);
    await new Promise<void>((resolve, reject) => {
      onA.on("connect", () => resolve());
      onA.on("connect_error", reject);
    });
    const disconnectReason = new Promise<string>((resolve) => onA.on("disconnect", (reason) => resolve(reason)));

    const restarts: string[] = [];
    // the worker: a new one first, then SIGTERM to the old one (it finishes its calls and frees its leases)
    await sleep(1000);
    const w3 = await start("worker-3", "worker");
    const wStop = Date.now();
    const old = worker;
    expect(await old.stop(), old.output()).toBe(0);
    await until("the session on the new worker", async () => pidOf(await ownerOf(wa)) === w3.pid, 10_000);
    restarts.push(`worker: leases taken ${Date.now() - wStop} ms after SIGTERM`);
    worker = w3;
    // web A, then web B: each replaced by a new process; the balancer stops sending to it first
    for (const old of [a, b]) {
      await sleep(1000);
      const fresh = await start(`${old.name}-2`, "web");
      webs = [...webs.filter((w) => w !== old), fresh];
      const stopAt = Date.now();
      const code = await old.stop();
      expect(code, old.output()).toBe(0);
      restarts.push(`${old.name} replaced (stopped in ${Date.now() - stopAt} ms)`);
    }
    await sleep(1000);
    streaming = false;
    await stream;
    console.log(`rolling restart: ${inboundSent.length} customer and ${agentSent.length} agent messages; ${restarts.join("; ")}`);
    expect(await disconnectReason).toBe("transport close");

    // every customer message the balancer got a 200 for is stored once, in the ticket
    const stored = await sql.many<{ body: string; n: number }>(
      "SELECT body, count(*)::int AS n FROM messages WHERE whatsapp_id = $1 AND NOT from_me AND body LIKE 'cliente %' GROUP BY 1",
      [wa],
    );
    expect(stored.filter((s) => s.n > 1)).toEqual([]);
    expect(stored.map((s) => s.body).sort()).toEqual([...inboundSent].sort());
    // every agent message is on the phone exactly once
    await until(
      "the agents' messages delivered",
      async () => (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE ticket_id = $1 AND from_me AND send_status <> 'sent'", [ticketId])).n === 0,
      20_000,
    );
    const phone = await sql.many<{ body: string; n: number }>(
      "SELECT body, count(*)::int AS n FROM sandbox_messages WHERE whatsapp_id = $1 AND direction = 'outbound' AND body LIKE 'agente %' GROUP BY 1",
      [wa],
    );
    expect(phone.filter((p) => p.n > 1)).toEqual([]);
    expect(phone.map((p) => p.body).sort()).toEqual([...agentSent].sort());
    expect(inboundSent.length).toBeGreaterThan(10);
  });
});
