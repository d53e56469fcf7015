import { EXTERNAL_API_BAD_TOKENS_PER_MINUTE } from "@atende/shared";
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { bearerToken, companySettingOn } from "../../core/http.js";
import { apiTokenHash } from "../whatsapp/api-token.js";
import { BadTokenLimit } from "./bad-token-limit.js";
import { authenticate, type ApiConnection } from "./service.js";

const limits = new WeakMap<AppContext, BadTokenLimit>();

/**
 * The route config of every Messages API route: public (no user session), RATE_LIMIT_EXTERNAL_TOKEN_PER_MINUTE
 * (default 120) calls a minute per token, counted before the token is looked up (keyed by the token's
 * keyed hash, never the token itself; by address without one). 0 turns this limit off.
 */
export function externalRouteConfig(ctx: AppContext) {
  const keyGenerator = (request: FastifyRequest) => {
    const token = bearerToken(request);
    return token ? `api:${apiTokenHash(ctx.config.jwtSecret, token).toString("base64url")}` : `api-ip:${request.ip}`;
  };
  const max = ctx.config.rateLimits.externalTokenPerMinute;
  return { public: true, rateLimit: max > 0 ? { max, timeWindow: "1 minute", keyGenerator } : false } as const;
}

/** The token's connection; a wrong or missing token counts against the caller's address (10 a minute, then 429). */
export async function externalCaller(ctx: AppContext, request: FastifyRequest): Promise<ApiConnection> {
  let badTokens = limits.get(ctx);
  if (!badTokens) {
    badTokens = new BadTokenLimit(ctx.limits.counters, EXTERNAL_API_BAD_TOKENS_PER_MINUTE, 60_000);
    limits.set(ctx, badTokens);
  }
  if (await badTokens.blocked(request.ip)) throw new AppError("ERR_TOO_MANY_REQUESTS", "Muitas tentativas. Aguarde e tente novamente.");
  let conn: ApiConnection;
  try {
    conn = await authenticate(ctx, bearerToken(request));
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_SESSION_EXPIRED") {
      await badTokens.fail(request.ip);
      request.log.warn({ address: request.ip }, "messages API: wrong or missing token");
    }
    throw err;
  }
  // the company's limit, all its connections' tokens together (429 ERR_RATE_LIMITED)
  await ctx.limits.checkExternal(request, conn.companyId);
  return conn;
}

/**
 * A Messages API caller that may run campaigns: the token's company (as `externalCaller`), whose plan has
 * useCampaigns (else 403 ERR_PLAN_FEATURE_DISABLED) and whose campaignsEnabled setting is on (else 403
 * ERR_FEATURE_DISABLED): the web list's gates, without the user role (the token is the company's).
 */
export async function campaignCaller(ctx: AppContext, request: FastifyRequest): Promise<{ companyId: number }> {
  const conn = await externalCaller(ctx, request);
  if (!conn.useCampaigns) throw new AppError("ERR_PLAN_FEATURE_DISABLED", "Recurso não disponível no plano da empresa");
  if (!(await companySettingOn(ctx, conn.companyId, "campaignsEnabled"))) throw new AppError("ERR_FEATURE_DISABLED", "Recurso desativado nas configurações da empresa");
  return { companyId: conn.companyId };
}
