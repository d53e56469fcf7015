import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect, type Socket } from "socket.io-client";
import { buildApp, type BuiltApp } from "../src/app.js";
import { buildTenant, createTestApp, type TestApp } from "./helper.js";

/** .ci/run starts a Redis of its own on a free port when none answers here, and passes its URL. */
const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
/** In CI a missing Redis is a failure: a skipped test would hide that the adapter went untested. */
const REQUIRED = process.env.CI === "true";

/** True when something answers PING at the URL's host and port. */
function redisReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

const redisUp = await redisReachable(REDIS_URL);

it.runIf(REQUIRED)("has a Redis to test the adapter against (CI=true; .ci/run starts one)", () => {
  expect(redisUp, `no Redis answered PING at ${REDIS_URL} (TEST_REDIS_URL)`).toBe(true);
});

describe.skipIf(!redisUp)("socket.io Redis adapter", () => {
  let a: TestApp;
  let b: BuiltApp;
  let baseB: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    a = await createTestApp({ redisUrl: REDIS_URL });
    // A second server process on the same database, with its own socket.io server.
    b = await buildApp({ ...a.ctx.config, redisUrl: REDIS_URL, runJobs: false }, a.pool, a.databaseUrl);
    await b.app.ready();
    await b.app.listen({ port: 0, host: "127.0.0.1" });
    baseB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await b?.close();
    await a?.close();
  });

  async function socketOnB(token: string): Promise<Socket> {
    const socket = connect(baseB, { auth: { token }, transports: ["websocket"] });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    return socket;
  }

  it("a client on process B receives the user event process A emits, and only its company's", async () => {
    const t = await buildTenant(a);
    const other = await buildTenant(a);
    const onB = await socketOnB(t.admin.token);
    const otherOnB = await socketOnB(other.admin.token);
    let leaked = false;
    otherOnB.onAny((event: string) => {
      if (event === `company-${t.companyId}-user`) leaked = true;
    });
    // the edit's event (not the admin's own presence, announced when the socket connected)
    const received = new Promise<unknown>((resolve) =>
      onB.on(`company-${t.companyId}-user`, (e: { user?: { id: number } }) => e.user?.id === t.user.id && resolve(e)),
    );

    const res = await a.api("PUT", `/api/users/${t.user.id}`, { token: t.admin.token, body: { name: "Via Redis" } });
    expect(res.statusCode).toBe(200);
    await expect(received).resolves.toEqual({ action: "update", user: res.json() });
    expect(res.json().name).toBe("Via Redis");
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toBe(false);
  });

  it("is not a local echo: process B's own io has no socket of process A", async () => {
    const t = await buildTenant(a);
    await socketOnB(t.user.token);
    const local = await a.ctx.realtime.io.local.in(`user:${t.user.id}`).fetchSockets();
    expect(local).toHaveLength(0);
    const everywhere = await a.ctx.realtime.io.in(`user:${t.user.id}`).fetchSockets();
    expect(everywhere).toHaveLength(1);
  });

  it("a session ended on process A closes its socket on process B at once", async () => {
    const t = await buildTenant(a);
    const socket = await socketOnB(t.user.token);
    const closed = new Promise<void>((resolve) => socket.on("disconnect", () => resolve()));
    expect((await a.api("DELETE", "/api/auth/logout", { token: t.user.token })).statusCode).toBe(200);
    await closed;
    expect(socket.connected).toBe(false);
  });

  it("clears the online flag only when the user's last socket on any process has closed", async () => {
    const t = await buildTenant(a);
    const onB = await socketOnB(t.user.token);
    const onA = connect(await a.listen(), { auth: { token: t.user.token }, transports: ["websocket"] });
    sockets.push(onA);
    await new Promise<void>((resolve) => onA.on("connect", () => resolve()));
    onA.emit("userStatus");
    const online = async () => (await a.sql.one<{ online: boolean }>("SELECT online FROM users WHERE id = $1", [t.user.id])).online;
    await new Promise((r) => setTimeout(r, 200));
    onA.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(await online()).toBe(true);
    onB.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(await online()).toBe(false);
  });
});
