import { readdir } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { liveness, readiness, type Readiness } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { MIGRATIONS_DIR } from "../../db/migrate.js";

/** Set when the process starts shutting down (SIGTERM): /readyz answers 503 from then on. */
export interface Lifecycle {
  draining: boolean;
}

/** A check slower than this fails: a probe must answer within the orchestrator's timeout. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * The orchestrator's probes, outside /api and without a session (docs/api.md "Health"):
 * GET /healthz, the process answers (no database: a database outage must not restart every
 * process); GET /readyz, this process may take traffic: database reachable, every migration file of
 * this version applied, Redis connected and answering when REDIS_URL is set; 503 while any fails, and 503
 * "draining" from SIGTERM on, so the load balancer stops sending requests before the server closes.
 */
export function registerProbes(app: FastifyInstance, ctx: AppContext, lifecycle: Lifecycle, migrationsDir = MIGRATIONS_DIR): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { public: true, tag: "health" };
  let files: Promise<string[]> | null = null;
  const migrationFiles = () => (files ??= readdir(migrationsDir).then((all) => all.filter((f) => f.endsWith(".sql")).sort()));

  api.get("/healthz", { config, schema: { response: { 200: liveness } } }, async () => ({ status: "alive" as const }));

  api.get("/readyz", { config, schema: { response: { 200: readiness, 503: readiness } } }, async (request, reply) => {
    const failed = (what: string) => (err: unknown) => {
      request.log.warn({ err }, `readiness: ${what} check failed`);
      return "failed" as const;
    };
    const [database, migrations, redis] = await Promise.all([
      withTimeout(ctx.sql.one("SELECT 1")).then(() => "ok" as const, failed("database")),
      withTimeout(pendingMigrations(ctx, migrationFiles)).then((pending) => pending, failed("migrations")),
      // a connection known to be down fails without a line per probe: its client logs the outage (core/redis-client.ts)
      withTimeout(ctx.realtime.redisAnswers()).then(
        (answer) => (answer === null ? ("not configured" as const) : answer === "ok" ? ("ok" as const) : ("failed" as const)),
        failed("redis"),
      ),
    ]);
    const body: Readiness = {
      status: "ready",
      checks: { database, migrations: Array.isArray(migrations) ? (migrations.length ? "failed" : "ok") : migrations, redis },
      ...(Array.isArray(migrations) && migrations.length ? { pendingMigrations: migrations } : {}),
    };
    if (Object.values(body.checks).includes("failed")) body.status = "not ready";
    if (lifecycle.draining) body.status = "draining";
    return reply.status(body.status === "ready" ? 200 : 503).send(body);
  });
}

/** This version's migration files that schema_migrations does not list. */
async function pendingMigrations(ctx: AppContext, files: () => Promise<string[]>): Promise<string[]> {
  const applied = new Set((await ctx.sql.many<{ name: string }>("SELECT name FROM schema_migrations")).map((r) => r.name));
  return (await files()).filter((f) => !applied.has(f));
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
