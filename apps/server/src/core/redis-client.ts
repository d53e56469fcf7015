import type { FastifyBaseLogger } from "fastify";
import { createClient, type RedisClientOptions } from "redis";

export type RedisClient = ReturnType<typeof createClient>;

/** While a connection stays down, one reminder per this long (the client retries every 2 s at most). */
export const REDIS_REMINDER_MS = 30_000;

/**
 * Every Redis client of the server (the socket.io adapter's publisher and subscriber, the rate-limit
 * counters) is created here, so none lacks an 'error' listener: node-redis emits 'error' on each failed
 * connection attempt, and an 'error' nobody listens to ends the process. `name` says which client a log
 * line is about. The listener is attached before the first connection, which retries until Redis answers.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger, name: string, options: Omit<RedisClientOptions, "url"> = {}): Promise<RedisClient> {
  const client = createClient({ ...options, url });
  watchConnection(client, log, name);
  await client.connect();
  return client;
}

/**
 * One warning when the connection is lost, one reminder every 30 s while it stays lost (the client
 * fails a reconnection every 2 s: a warning each time would bury every other line of an outage), and
 * one line when it is back, with how long it was down and how many attempts failed.
 */
function watchConnection(client: RedisClient, log: FastifyBaseLogger, name: string): void {
  let downSince: number | null = null;
  let lastLine = 0;
  let failures = 0;
  client.on("error", (err: unknown) => {
    const now = Date.now();
    failures++;
    if (downSince === null) {
      downSince = lastLine = now;
      log.warn({ err, redisClient: name }, "Redis connection lost; reconnecting (logged again every 30 s while it lasts)");
    } else if (now - lastLine >= REDIS_REMINDER_MS) {
      lastLine = now;
      log.warn({ err, redisClient: name, downForMs: now - downSince, failures }, "Redis still unreachable; reconnecting");
    }
  });
  client.on("ready", () => {
    if (downSince === null) return;
    log.info({ redisClient: name, downForMs: Date.now() - downSince, failures }, "Redis connection restored");
    downSince = null;
    failures = 0;
  });
}

/**
 * Closes a client: QUIT when connected; a client still reconnecting (Redis down) would wait for Redis to
 * answer the QUIT, so it is dropped instead (its queued commands fail at once).
 */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (client.isReady) await client.quit();
  else if (client.isOpen) client.destroy();
}
