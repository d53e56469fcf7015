import type { FastifyBaseLogger } from "fastify";
import { closeRedis, connectRedis, type RedisClient } from "../redis-client.js";
import { MemoryCounterStore, type CounterStore, type WindowCount } from "./counter-store.js";

/** One round trip: count, start the window on the first event, return the count and the time left. */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** A command slower than this counts in memory instead: a request never waits long on Redis. */
const COMMAND_TIMEOUT_MS = 500;
/** One warning per this long while Redis fails, not one per request. */
const WARN_EVERY_MS = 30_000;

/**
 * Counters in Redis, shared by every process with the same REDIS_URL. While Redis cannot answer, each
 * process counts in its own memory (the limits hold per process, as without Redis) and logs a warning
 * every 30 s: an outage of the counters does not take the API down with it.
 */
export class RedisCounterStore implements CounterStore {
  private readonly fallback = new MemoryCounterStore();
  private lastWarning = 0;

  private constructor(
    private readonly client: RedisClient,
    private readonly log: FastifyBaseLogger,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, log: FastifyBaseLogger, prefix = "atende:rl:"): Promise<RedisCounterStore> {
    // without the offline queue a command fails at once while disconnected, instead of waiting for the reconnection
    const client = await connectRedis(url, log, "rate-limit counters", { disableOfflineQueue: true });
    return new RedisCounterStore(client, log, prefix);
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    try {
      const reply = (await this.timed(this.client.eval(HIT, { keys: [this.prefix + key], arguments: [String(windowMs)] }))) as [number, number];
      return { count: Number(reply[0]), resetMs: Math.max(0, Number(reply[1])) };
    } catch (err) {
      this.warn(err, "could not count in Redis: counting in this process's memory");
      return this.fallback.hit(key, windowMs);
    }
  }

  async peek(key: string): Promise<number> {
    try {
      const value = await this.timed(this.client.get(this.prefix + key));
      return value === null ? 0 : Number(value);
    } catch (err) {
      this.warn(err, "could not read a counter in Redis: reading this process's memory");
      return this.fallback.peek(key);
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await closeRedis(this.client);
  }

  private timed<T>(command: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
    });
    return Promise.race([command, timeout]).finally(() => clearTimeout(timer));
  }

  private warn(err: unknown, message: string): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.log.warn({ err, component: "rate-limit" }, message);
  }
}
