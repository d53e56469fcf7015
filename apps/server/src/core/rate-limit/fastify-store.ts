import type { CounterStore } from "./counter-store.js";

interface RouteLimitOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/** The store interface of @fastify/rate-limit (its `store` option): incr with a callback, child per route. */
export interface FastifyRateLimitStore {
  incr(key: string, callback: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void;
  child(routeOptions: object): FastifyRateLimitStore;
}

/**
 * @fastify/rate-limit's counters (the routes' `config.rateLimit` and `createRateLimit`) kept in the
 * server's CounterStore, so that with REDIS_URL the login, sign-up and Messages API limits hold across
 * processes too. A route's counters are named by its method and URL; a `createRateLimit` limit has no
 * route, so its key must name it (attempt-limits.ts prefixes each key with the limit's name).
 */
export function fastifyStoreOf(counters: CounterStore) {
  class Store implements FastifyRateLimitStore {
    private readonly prefix: string;
    /** The plugin calls `new Store(pluginOptions)`; children are made with their own prefix. */
    constructor(_pluginOptions?: unknown, prefix = "route:") {
      this.prefix = prefix;
    }

    // the plugin passes the route's window (ms) as the third argument; its type definitions leave it out
    incr(key: string, callback: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow = 60_000): void {
      counters.hit(this.prefix + key, timeWindow).then(
        (w) => callback(null, { current: w.count, ttl: w.resetMs }),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    // the plugin passes the route's merged limit options, its route under routeInfo (typed as route options)
    child(routeOptions: object): FastifyRateLimitStore {
      const info = (routeOptions as RouteLimitOptions).routeInfo;
      const method = [info?.method ?? ""].flat().join(",");
      return new Store(undefined, info?.url ? `route:${method}${info.url}:` : "limit:");
    }
  }
  return Store;
}
