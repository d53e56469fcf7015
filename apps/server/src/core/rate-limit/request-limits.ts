import type { FastifyRequest } from "fastify";
import { AppError } from "../errors.js";
import type { Metrics } from "../metrics.js";
import type { CounterStore } from "./counter-store.js";

/** Requests a minute (0: no limit). RATE_LIMIT_* variables, docs/settings.md "Request limits". */
export interface RequestLimitsConfig {
  /** Every signed-in API request of one company, all its users and processes together. */
  companyPerMinute: number;
  /** The signed-in API requests of one session (one access token and its refreshed successors). */
  tokenPerMinute: number;
  /** Messages API (`/api/messages/*`, connection tokens) requests of one company. */
  externalCompanyPerMinute: number;
  /** Messages API requests of one connection token (counted by the routes' own limit, external-api/auth.ts). */
  externalTokenPerMinute: number;
}

export type LimitScope = "company" | "token" | "external-company";

const WINDOW_MS = 60_000;

/**
 * Per-company and per-token request limits, so that one tenant (or one runaway script) cannot take
 * the capacity every company shares. Counted in fixed one-minute windows in the CounterStore: Redis
 * with REDIS_URL (every process together), memory otherwise (each process alone). Past a limit the
 * request is answered 429 ERR_RATE_LIMITED with Retry-After (seconds to the window's end).
 */
export class RequestLimits {
  constructor(
    /** The store every limit counts in (also the Messages API's wrong-token counts). */
    readonly counters: CounterStore,
    private readonly config: RequestLimitsConfig,
    private readonly metrics?: Metrics,
  ) {}

  /** A signed-in API request (its token's verified claims): its company's and its session's (or user's, without a session) counts. */
  async checkApi(request: FastifyRequest, actor: { companyId: number; id: number; sessionId?: string }): Promise<void> {
    await this.check(request, [
      { scope: "company", key: `company:${actor.companyId}`, max: this.config.companyPerMinute },
      { scope: "token", key: actor.sessionId ? `session:${actor.sessionId}` : `user:${actor.id}`, max: this.config.tokenPerMinute },
    ]);
  }

  /**
   * A Messages API request with a valid token: its company's count, all its connections' tokens
   * together (each token's own count is the route's limit, checked before the token is looked up).
   */
  async checkExternal(request: FastifyRequest, companyId: number): Promise<void> {
    await this.check(request, [{ scope: "external-company", key: `ext-company:${companyId}`, max: this.config.externalCompanyPerMinute }]);
  }

  private async check(request: FastifyRequest, limits: { scope: LimitScope; key: string; max: number }[]): Promise<void> {
    const active = limits.filter((l) => l.max > 0);
    const counts = await Promise.all(active.map((l) => this.counters.hit(l.key, WINDOW_MS)));
    let refused: { scope: LimitScope; key: string; max: number; count: number; resetMs: number } | undefined;
    active.forEach((l, i) => {
      const c = counts[i];
      // the longest wait wins: answering the shorter one would only earn another 429
      if (c && c.count > l.max && (!refused || c.resetMs > refused.resetMs)) refused = { scope: l.scope, key: l.key, max: l.max, count: c.count, resetMs: c.resetMs };
    });
    if (!refused) return;
    const retryAfter = Math.max(1, Math.ceil(refused.resetMs / 1000));
    this.metrics?.countRateLimited(refused.scope);
    // one line per key and window (its first refusal), not one per refused request of a flood
    if (refused.count === refused.max + 1) request.log.warn({ limit: refused.scope, key: refused.key, max: refused.max, retryAfter }, "request limit reached");
    // the error handler turns retryAfter into the Retry-After header (core/http.ts)
    throw new AppError("ERR_RATE_LIMITED", "Limite de requisições atingido. Aguarde e tente novamente.", { scope: refused.scope, limit: refused.max, retryAfter });
  }
}
