import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "./errors.js";

export interface AttemptLimit {
  /** Names the counter in logs; each limit counts in its own store. */
  name: string;
  max: number;
  timeWindow: string;
  key: (request: FastifyRequest) => string;
  /** Counts only the requests this accepts (all when absent). */
  applies?: (request: FastifyRequest) => boolean;
}

/**
 * Several limits on one route (per address, per e-mail, ...), all checked: @fastify/rate-limit runs
 * only one `config.rateLimit` per request, so its `createRateLimit` counters are combined here.
 * Registered as a preHandler (after body parsing, so a key may use the body or params).
 */
export function attemptLimits(app: FastifyInstance, limits: AttemptLimit[]) {
  // the limit's name leads its key: with REDIS_URL every limit counts in the same Redis (fastify-store.ts)
  const checks = limits.map((l) => ({ ...l, check: app.createRateLimit({ max: l.max, timeWindow: l.timeWindow, keyGenerator: (req) => `${l.name}:${l.key(req)}` }) }));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const limit of checks) {
      if (limit.applies && !limit.applies(request)) continue;
      const result = await limit.check(request);
      // isAllowed means "on the allow list"; isExceeded is the verdict.
      if (result.isAllowed || !result.isExceeded) continue;
      request.log.warn({ limit: limit.name, ip: request.ip }, "attempt limit reached");
      void reply.header("retry-after", String(result.ttlInSeconds));
      throw new AppError("ERR_TOO_MANY_REQUESTS", "Muitas tentativas. Aguarde e tente novamente.");
    }
  };
}

/** The lower-cased e-mail of a body or params, for per-account counters. */
export function emailOf(source: unknown): string {
  const email = (source as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
}
