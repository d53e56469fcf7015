import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type BuiltApp } from "../../app.js";
import { connectedSandbox } from "../../channels/testing.js";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { hasRedisServer, startRedisServer, type TestRedis } from "../../../test/redis-server.js";

/** In CI a missing redis-server is a failure: a skipped test would hide that the shared counts went untested. */
const REQUIRED = process.env.CI === "true";
const redisAvailable = hasRedisServer();

it.runIf(REQUIRED)("has redis-server to start (CI=true)", () => {
  expect(redisAvailable, "redis-server is not installed (apt-get install redis-server)").toBe(true);
});

let address = 0;
/** Each call from its own client address: the per-address limits must not be what answers 429 here. */
const from = () => ({ "x-forwarded-for": `10.91.${(++address >> 8) & 255}.${address & 255}` });

async function get(app: { inject: BuiltApp["app"]["inject"] }, token: string) {
  return app.inject({ method: "GET", url: "/api/queue", headers: { authorization: `Bearer ${token}`, ...from() } });
}

describe("per-company and per-token request limits, one process (memory)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ rateLimits: { companyPerMinute: 8, tokenPerMinute: 5, externalCompanyPerMinute: 0, externalTokenPerMinute: 0 } });
  });
  afterAll(() => app?.close());

  it("a session past its limit gets 429 ERR_RATE_LIMITED with Retry-After; the company's other sessions go on until the company's limit", async () => {
    const t = await buildTenant(app);
    const other = await buildTenant(app);
    // buildTenant's logins made no API calls; five calls pass for the admin's session
    for (let i = 0; i < 5; i++) expect((await get(app.app, t.admin.token)).statusCode).toBe(200);
    const refused = await get(app.app, t.admin.token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: "ERR_RATE_LIMITED", scope: "token", limit: 5 });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json().retryAfter).toBe(retryAfter);

    // the company has counted 6 (the refused one counts too); its supervisor gets 2 more, then the company is full
    expect((await get(app.app, t.supervisor.token)).statusCode).toBe(200);
    expect((await get(app.app, t.supervisor.token)).statusCode).toBe(200);
    const full = await get(app.app, t.user.token);
    expect(full.statusCode).toBe(429);
    expect(full.json()).toMatchObject({ error: "ERR_RATE_LIMITED", scope: "company", limit: 8 });
    expect(Number(full.headers["retry-after"])).toBeGreaterThanOrEqual(1);

    // another company is not touched by this one's flood
    for (let i = 0; i < 5; i++) expect((await get(app.app, other.admin.token)).statusCode).toBe(200);

    const metric = await app.ctx.metrics.registry.getSingleMetric("atende_rate_limited_total")?.get();
    const byScope = Object.fromEntries((metric?.values ?? []).map((v) => [v.labels.scope, v.value]));
    expect(byScope).toMatchObject({ token: 1, company: 1 });
  });

  it("a new login of the same user is a new session with its own count (the company's still holds)", async () => {
    const t = await buildTenant(app);
    for (let i = 0; i < 6; i++) await get(app.app, t.admin.token);
    expect((await get(app.app, t.admin.token)).statusCode).toBe(429);
    const second = await app.login(t.admin.email);
    expect((await get(app.app, second)).statusCode).toBe(200);
  });

  it("public routes and unauthenticated calls are not counted against a company", async () => {
    const t = await buildTenant(app);
    for (let i = 0; i < 10; i++) {
      const res = await app.app.inject({ method: "GET", url: "/api/queue", headers: from() });
      expect(res.statusCode).toBe(401);
    }
    expect((await get(app.app, t.admin.token)).statusCode).toBe(200);
  });
});

describe.skipIf(!redisAvailable)("limits shared by two processes through Redis (REDIS_URL)", () => {
  let redis: TestRedis;
  let a: TestApp;
  let b: BuiltApp;
  const limits = { companyPerMinute: 6, tokenPerMinute: 100, externalCompanyPerMinute: 5, externalTokenPerMinute: 3 };

  beforeAll(async () => {
    redis = await startRedisServer();
    a = await createTestApp({ redisUrl: redis.url, rateLimits: limits });
    // a second server process on the same database and the same Redis
    b = await buildApp({ ...a.ctx.config, redisUrl: redis.url, runJobs: false }, a.pool, a.databaseUrl);
    await b.app.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.stop();
  });

  it("a company's count is one across both processes: the 7th call answers 429 whichever process takes it", async () => {
    const t = await buildTenant(a);
    const other = await buildTenant(a);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await get(i % 2 === 0 ? a.app : b.app, i < 4 ? t.admin.token : t.user.token)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const onB = await get(b.app, t.supervisor.token);
    expect(onB.statusCode).toBe(429);
    expect(onB.json()).toMatchObject({ error: "ERR_RATE_LIMITED", scope: "company", limit: 6 });
    expect(Number(onB.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // the other company, on both processes
    expect((await get(a.app, other.admin.token)).statusCode).toBe(200);
    expect((await get(b.app, other.admin.token)).statusCode).toBe(200);
  });

  it("Messages API: a token's limit and its company's limit hold across both processes", async () => {
    const t = await buildTenant(a);
    const other = await buildTenant(a);
    const tokenOf = async (tenant: typeof t, name: string) => {
      const id = await connectedSandbox(a, tenant.admin.token, { name });
      const res = await a.api("POST", `/api/whatsapp/${id}/token`, { token: tenant.admin.token });
      expect(res.statusCode).toBe(200);
      return res.json().token as string;
    };
    const t1 = await tokenOf(t, "API um");
    const t2 = await tokenOf(t, "API dois");
    const theirs = await tokenOf(other, "API outra");
    // an empty number: past the limits the call reaches the body's validation (400); a limit answers 429 first
    const send = (app: BuiltApp["app"], token: string) =>
      app.inject({ method: "POST", url: "/api/messages/send", headers: { authorization: `Bearer ${token}`, ...from() }, payload: { number: "" } });

    const first = [await send(a.app, t1), await send(b.app, t1), await send(a.app, t1)].map((r) => r.statusCode);
    expect(first).toEqual([400, 400, 400]);
    const tokenFull = await send(b.app, t1);
    expect(tokenFull.statusCode).toBe(429);
    expect(tokenFull.json().error).toBe("ERR_TOO_MANY_REQUESTS");
    expect(Number(tokenFull.headers["retry-after"])).toBeGreaterThanOrEqual(1);

    // the company has 3 counted (the token's refused call stopped before the company's count): 2 more for its second token
    expect((await send(a.app, t2)).statusCode).toBe(400);
    expect((await send(b.app, t2)).statusCode).toBe(400);
    const companyFull = await send(a.app, t2);
    expect(companyFull.statusCode).toBe(429);
    expect(companyFull.json()).toMatchObject({ error: "ERR_RATE_LIMITED", scope: "external-company", limit: 5 });
    expect(Number(companyFull.headers["retry-after"])).toBeGreaterThanOrEqual(1);

    expect((await send(b.app, theirs)).statusCode).toBe(400);
  });

  it("wrong Messages API tokens from one address count across both processes", async () => {
    const headers = { authorization: "Bearer wrong-token", "x-forwarded-for": "10.92.0.1" };
    const statuses: number[] = [];
    // the per-token route limit keys a wrong token by its hash: 3 a minute; the address's bad-token limit: 10
    // a minute, so each call uses another wrong token to reach the address's limit
    for (let i = 0; i < 11; i++) {
      const res = await (i % 2 === 0 ? a.app : b.app).inject({ method: "POST", url: "/api/messages/send", headers: { ...headers, authorization: `Bearer wrong-${i}` }, payload: { number: "1" } });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });

  it("while Redis is down each process counts alone and the API still answers", async () => {
    const t = await buildTenant(a);
    const user = await buildUser(a.sql, t.companyId, { profile: "user", name: "Outro" });
    const token = await a.login(user.email);
    await redis.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await get(i % 2 === 0 ? a.app : b.app, token)).statusCode);
    // 4 calls on each process: under the company's 6 in each process's memory
    expect(statuses).toEqual(Array<number>(8).fill(200));
    const more = [await get(a.app, token), await get(a.app, token), await get(a.app, token)].map((r) => r.statusCode);
    expect(more).toEqual([200, 200, 429]);
    // Redis back on its port: the clients reconnect (and the socket adapter's can say goodbye when the apps close)
    redis = await startRedisServer(Number(new URL(redis.url).port));
    // every Redis client reconnects on its own schedule (slow under load): the test waits until all of
    // them (the socket adapter's publisher and subscriber, the counters') are connected again
    const clients = (app: BuiltApp) => {
      const { pub, sub } = (app.ctx.realtime as unknown as { redis: { pub: { isReady: boolean }; sub: { isReady: boolean } } }).redis;
      return [pub, sub, (app.ctx.limits.counters as unknown as { client: { isReady: boolean } }).client];
    };
    for (let i = 0; i < 150 && ![...clients(a), ...clients(b)].every((c) => c.isReady); i++) await new Promise((r) => setTimeout(r, 100));
    expect([...clients(a), ...clients(b)].map((c) => c.isReady)).toEqual([true, true, true, true, true, true]);
    // back on Redis, whose restart (no persistence) forgot the window: the count starts again there,
    // where this process's memory (past the limit) would answer 429
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await get(a.app, token)).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});

