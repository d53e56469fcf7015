import net from "node:net";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../test/helper.js";
import { channels } from "../channels/manager.js";
import { ConfigError, loadConfig } from "../config.js";
import { freePort } from "../db/embedded.js";
import { bounceListenerOf } from "../domains/email-bounces/routes.js";
import { runsBackground } from "./roles.js";

/** ROLE: what a web process and a worker run and answer (docs/architecture.md "Process roles and fencing"). */
describe("ROLE in the configuration", () => {
  it("defaults to all (one process runs everything, as before); web and worker need REDIS_URL; anything else is refused", () => {
    const all = loadConfig({ NODE_ENV: "test" });
    expect({ role: all.role, runJobs: all.runJobs, runSessions: all.runSessions }).toEqual({ role: "all", runJobs: true, runSessions: true });
    const web = loadConfig({ NODE_ENV: "test", ROLE: "web", REDIS_URL: "redis://127.0.0.1:6379" });
    expect({ role: web.role, runJobs: web.runJobs, runSessions: web.runSessions }).toEqual({ role: "web", runJobs: false, runSessions: false });
    const worker = loadConfig({ NODE_ENV: "test", ROLE: "worker", REDIS_URL: "redis://127.0.0.1:6379" });
    expect({ role: worker.role, runJobs: worker.runJobs, runSessions: worker.runSessions }).toEqual({ role: "worker", runJobs: true, runSessions: true });
    expect(() => loadConfig({ NODE_ENV: "test", ROLE: "web" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "test", ROLE: "worker" })).toThrow(/needs REDIS_URL/);
    expect(() => loadConfig({ NODE_ENV: "test", ROLE: "api", REDIS_URL: "redis://x" })).toThrow(/ROLE must be all, web or worker/);
  });

  it("a web process never runs a dispatcher, even when CAMPAIGN_DISPATCH=true asks for one", () => {
    expect(runsBackground({ role: "web", runJobs: false }, true)).toBe(false);
    expect(runsBackground({ role: "worker", runJobs: true }, null)).toBe(true);
    expect(runsBackground({ role: "worker", runJobs: true }, false)).toBe(false);
    expect(runsBackground({ role: "all", runJobs: false }, true)).toBe(true);
  });
});

/** What a connection to 127.0.0.1:`port` meets first: the server's greeting line, or the error's code. */
function firstAnswer(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const done = (answer: string) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(5000, () => done("no answer"));
    socket.once("error", (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    socket.once("data", (data) => done(data.toString().split("\r\n")[0]!));
  });
}

describe("a worker and a web process", () => {
  let worker: TestApp;
  let web: TestApp;
  const bouncePort = { worker: 0, web: 0 };
  beforeAll(async () => {
    // each its own BOUNCE_SMTP_PORT (read when its domains register): the e-mail bounce listener's
    process.env.BOUNCE_SMTP_HOST = "127.0.0.1";
    try {
      process.env.BOUNCE_SMTP_PORT = String((bouncePort.worker = await freePort()));
      worker = await createTestApp({ role: "worker" });
      process.env.BOUNCE_SMTP_PORT = String((bouncePort.web = await freePort()));
      web = await createTestApp({ role: "web", runJobs: false, runSessions: false, driverCallTimeoutMs: 1000 });
    } finally {
      delete process.env.BOUNCE_SMTP_PORT;
      delete process.env.BOUNCE_SMTP_HOST;
    }
  });
  afterAll(async () => {
    await worker?.close();
    await web?.close();
  });

  it("a worker answers only the probes and the metrics: the API is 404 ERR_NOT_FOUND and sockets are refused", async () => {
    expect((await worker.api("GET", "/healthz")).statusCode).toBe(200);
    expect((await worker.api("GET", "/readyz")).statusCode).toBe(200);
    expect((await worker.api("GET", "/metrics")).statusCode).toBe(200);
    const api = await worker.api("GET", "/api/health");
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toBe("ERR_NOT_FOUND");
    expect((await worker.api("POST", "/api/auth/login", { body: { email: "x@y.z", password: "whatever1" } })).statusCode).toBe(404);
    const base = await worker.listen();
    const socket = connect(base, { transports: ["websocket"], reconnection: false, auth: { token: "x" } });
    const outcome = await new Promise<string>((resolve) => {
      socket.on("connect", () => resolve("connected"));
      socket.on("connect_error", () => resolve("refused"));
    });
    socket.close();
    expect(outcome).toBe("refused");
  });

  it("the e-mail bounce listener (BOUNCE_SMTP_PORT) runs where jobs run: the worker answers SMTP on its port, the web process opens none", async () => {
    expect(await firstAnswer(bouncePort.worker)).toMatch(/^220 .*atende bounce receiver/);
    expect(await firstAnswer(bouncePort.web)).toBe("ECONNREFUSED");
    expect(bounceListenerOf(web.ctx)).toBeNull();
  });

  it("a web process serves the API but runs no session: a connected session nobody runs is left to the workers", async () => {
    const t = await buildTenant(web);
    expect((await web.api("GET", "/api/health")).statusCode).toBe(200);
    // CONNECTED and free, as a session a stopped worker left behind
    const wa = await web.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name, provider, status) VALUES ($1, 'Livre', 'sandbox', 'CONNECTED') RETURNING id", [
      t.companyId,
    ]);
    // what a web process's start-up and heartbeat do: nothing with sessions
    await channels(web.ctx).startConnected();
    await channels(web.ctx).tick();
    expect(channels(web.ctx).get(wa.id)).toBeUndefined();
    expect((await web.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM connection_owners")).n).toBe(0);
    // an administrator's start on the web process finds no process that runs sessions: it says so in time
    const start = await web.api("POST", `/api/whatsappsession/${wa.id}`, { token: t.admin.token });
    expect(start.statusCode, start.body).toBe(503);
    expect(start.json().error).toBe("ERR_WAPP_OWNER_UNREACHABLE");
  });
});
