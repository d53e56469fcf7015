import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { passesGate, SETTING_DEFAULTS, type RouteGate } from "@atende/shared";
import type { RequestActor } from "./actor.js";
import { authenticateAccessToken } from "./access.js";
import type { AppContext } from "./context.js";
import { AppError } from "./errors.js";
import { SessionActivity } from "./sessions.js";

/** PostgreSQL's invalid-input errors: 22021 bad encoding, 22P02 invalid text, 22003 out of range, 22007/22008 bad date, 22P05 untranslatable character. */
const PG_INVALID_INPUT = new Set(["22021", "22P02", "22003", "22007", "22008", "22P05"]);

declare module "fastify" {
  interface FastifyRequest {
    actor: RequestActor;
  }
  interface FastifyContextConfig {
    /** No session needed. */
    public?: boolean;
    /** Role / super / plan-flag gate applied before the handler. */
    gate?: RouteGate;
  }
}

/** One error shape for every failure: `{ error, message }`; never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send({ error: "ERR_NOT_FOUND", message: `Route ${request.method} ${request.url.split("?")[0]} not found` });
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.status === 429 && typeof err.extra.retryAfter === "number") void reply.header("retry-after", String(err.extra.retryAfter));
      return reply.status(err.status).send({ error: err.code, message: err.message, ...err.extra });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, "").replace(/\//g, ".");
        fields[key || "_"] ??= issue.message ?? "Invalid"; // the first failing rule (e.g. "Required")
      }
      const first = Object.entries(fields)[0];
      return reply.status(400).send({
        error: "ERR_VALIDATION",
        message: first ? `${first[0]}: ${first[1]}` : "Invalid request",
        fields,
      });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, "response serialization failed");
      return reply.status(500).send({ error: "ERR_INTERNAL", message: "Erro inesperado. Por favor, tente novamente" });
    }
    // Input PostgreSQL cannot hold (a NUL byte, a number out of range, malformed text for a typed
    // column, a \u0000 in JSON) is the client's mistake, not the server's.
    const pgCode = (err as { code?: string }).code;
    if (pgCode !== undefined && PG_INVALID_INPUT.has(pgCode)) {
      return reply.status(400).send({ error: "ERR_VALIDATION", message: "Valor inválido na requisição" });
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === "FST_REQ_FILE_TOO_LARGE" || err.code === "FST_FILES_LIMIT") {
      return reply.status(413).send({ error: "ERR_PAYLOAD_TOO_LARGE", message: "O arquivo excede o tamanho máximo de 10MB" });
    }
    if (status === 429) {
      return reply.status(429).send({ error: "ERR_TOO_MANY_REQUESTS", message: "Muitas tentativas. Aguarde e tente novamente." });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status === 404 ? 404 : 400).send({
        error: status === 404 ? "ERR_NOT_FOUND" : "ERR_VALIDATION",
        message: err.message,
      });
    }
    request.log.error({ err }, "unhandled error");
    return reply.status(500).send({ error: "ERR_INTERNAL", message: "Erro inesperado. Por favor, tente novamente" });
  });
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : null;
}

/** A company's on/off setting (settings table, its default when unset). */
export async function companySettingOn(ctx: AppContext, companyId: number, key: NonNullable<RouteGate["companySetting"]>): Promise<boolean> {
  const row = await ctx.sql.maybe<{ value: string }>("SELECT value FROM settings WHERE company_id = $1 AND key = $2", [companyId, key]);
  const value = row?.value ?? SETTING_DEFAULTS[key];
  return value === "true" || value === "enabled";
}

/**
 * Authentication and gates, once for every API route (registered inside the /api scope): a private
 * route needs a valid access token of a live session whose company may be used
 * (`authenticateAccessToken`); `config.gate` then applies role, super, plan and company-setting rules.
 */
export function registerAuthHooks(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest("actor", null as unknown as RequestActor);
  const activity = new SessionActivity(ctx.sql, app.log);
  app.addHook("onRequest", async (request: FastifyRequest, _reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config?.public || !request.routeOptions.url) return;
    // the request limits count on the token's verified claims, before the session is read: past its
    // company's or session's limit a request costs a signature check and one count
    const { actor } = await authenticateAccessToken(ctx.sql, ctx.tokens, bearerToken(request), (claims) =>
      ctx.limits.checkApi(request, { companyId: claims.companyId, id: claims.userId, sessionId: claims.sessionId }),
    );
    request.actor = actor;
    if (actor.sessionId) activity.touch(actor.companyId, actor.sessionId);
    const gate = config?.gate;
    if (gate && !passesGate(actor, actor.plan, gate)) {
      const planOnly = gate.planFlag && !actor.plan[gate.planFlag] && passesGate(actor, actor.plan, { ...gate, planFlag: undefined });
      throw new AppError(planOnly ? "ERR_PLAN_FEATURE_DISABLED" : "ERR_NO_PERMISSION", planOnly ? "Recurso não disponível no plano da empresa" : "Sem permissão");
    }
    if (gate?.companySetting && !(await companySettingOn(ctx, actor.companyId, gate.companySetting))) {
      throw new AppError("ERR_FEATURE_DISABLED", "Recurso desativado nas configurações da empresa");
    }
  });
}
