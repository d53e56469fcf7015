import { pino } from "pino";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { hasRedisServer, startRedisServer, type TestRedis } from "../../test/redis-server.js";
import { closeRedis, connectRedis } from "./redis-client.js";

const REQUIRED = process.env.CI === "true";
const available = hasRedisServer();

it.runIf(REQUIRED)("has redis-server to start (CI=true; .ci/run installs it)", () => {
  expect(available, "redis-server is not installed").toBe(true);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A Redis client's connection log (core/redis-client.ts) against a redis-server of the test's own that
 * it stops and starts: the lines a real pino logger writes are read back.
 */
describe.skipIf(!available)("a Redis client's connection log", () => {
  let redis: TestRedis | null = null;
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await redis?.stop();
  });

  it("one warning when lost, a reminder after 30 s (not one per attempt), one line when restored; closing while down does not wait", async () => {
    const lines: { level: number; msg: string; redisClient?: string; failures?: number; downForMs?: number }[] = [];
    const log = pino({ level: "info" }, { write: (s: string) => void lines.push(JSON.parse(s) as (typeof lines)[number]) });
    redis = await startRedisServer();
    const port = Number(new URL(redis.url).port);
    const client = await connectRedis(redis.url, log, "test client");
    expect(await client.ping()).toBe("PONG");
    expect(lines).toEqual([]);

    await redis.stop();
    redis = null;
    // the client retries after 50, 100, 200, 400, 800 ms (plus up to 200 ms each): five failures within 3 s
    await sleep(3000);
    expect(lines.map((l) => [l.level, l.msg, l.redisClient])).toEqual([[40, "Redis connection lost; reconnecting (logged again every 30 s while it lasts)", "test client"]]);

    // 30 s later by the clock: the next failed attempt reminds once
    vi.setSystemTime(Date.now() + 30_500);
    for (let i = 0; i < 60 && lines.length < 2; i++) await sleep(100);
    expect(lines.slice(1).map((l) => [l.level, l.msg])).toEqual([[40, "Redis still unreachable; reconnecting"]]);
    expect(lines[1]!.failures).toBeGreaterThan(3);
    await sleep(2500);
    expect(lines).toHaveLength(2);

    redis = await startRedisServer(port);
    for (let i = 0; i < 60 && !client.isReady; i++) await sleep(100);
    expect(await client.ping()).toBe("PONG");
    expect(lines.slice(2).map((l) => [l.level, l.msg, l.redisClient])).toEqual([[30, "Redis connection restored", "test client"]]);
    expect(lines[2]!.downForMs).toBeGreaterThan(30_000);

    // down again, then closed: the client is dropped at once instead of waiting for Redis to answer QUIT
    await redis.stop();
    redis = null;
    for (let i = 0; i < 30 && client.isReady; i++) await sleep(100);
    const started = performance.now();
    await closeRedis(client);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(client.isOpen).toBe(false);
  });
});
