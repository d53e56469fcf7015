import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyContextConfig, type FastifyInstance, type FastifySchema } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type pg from "pg";
import { LIMITS, PAY_LINK_PATH } from "@atende/shared";
import type { Config } from "./config.js";
import type { AppContext } from "./core/context.js";
import { registerAuthHooks, registerErrorHandler } from "./core/http.js";
import { Jobs } from "./core/jobs.js";
import { loggerOptions } from "./core/log-redaction.js";
import { Metrics } from "./core/metrics.js";
import { registerOpenApi } from "./core/openapi.js";
import { registerRunContext } from "./core/run-context.js";
import { applyAck, applyEdit, applyRevoke, processInbound } from "./channels/inbound.js";
import { useChannelSink } from "./channels/sink.js";
import { claimQueued, deliverQueued, failInterrupted } from "./domains/messages/send-message.js";
import { Realtime } from "./core/realtime.js";
import { registerSecurityHeaders } from "./core/security-headers.js";
import { registerWorkerGate } from "./core/roles.js";
import { PgListener } from "./core/pg-listener.js";
import { TokenService } from "./core/tokens.js";
import { defineResealJob } from "./core/secrets/job.js";
import { resealStoredSecrets } from "./core/secrets/reseal.js";
import { SecretSealer } from "./core/secrets/sealer.js";
import { createPool, Sql } from "./db/sql.js";
import { channels } from "./channels/manager.js";
import { domains } from "./domains/index.js";
import { MemoryCounterStore, type CounterStore } from "./core/rate-limit/counter-store.js";
import { fastifyStoreOf } from "./core/rate-limit/fastify-store.js";
import { RedisCounterStore } from "./core/rate-limit/redis-counter-store.js";
import { RequestLimits } from "./core/rate-limit/request-limits.js";
import { registerProbes, type Lifecycle } from "./domains/health/probes.js";
import { registerShortLinkRoute } from "./domains/sms-campaigns/short-links.js";
import { emailPublicRoutes } from "./domains/email-tracking/public-routes.js";
import { stopWorkerThreads } from "./core/worker-thread.js";

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every API route (method and URL), for tests and diagnostics. */
  routes: ApiRoute[];
  /** Starts jobs; call before listen. */
  start(): Promise<void>;
  /** The process is shutting down: /readyz answers 503 "draining" from now on (the server still answers). */
  drain(): void;
  close(): Promise<void>;
}

export type App = FastifyInstance;

/** One API route as registered: its method, URL pattern, schema and config (the OpenAPI document's source). */
export interface ApiRoute {
  method: string;
  url: string;
  readonly schema: FastifySchema | undefined;
  readonly config: FastifyContextConfig | undefined;
}

const SERVER_VERSION = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string }).version;


// the channel layer hands its traffic to the messages and tickets domains through one sink (channels/sink.ts)
useChannelSink({
  message: processInbound,
  ack: applyAck,
  edit: applyEdit,
  revoke: applyRevoke,
  claimQueued,
  deliverQueued,
  failInterrupted,
});

export async function buildApp(config: Config, pool: pg.Pool, databaseUrl: string): Promise<BuiltApp> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    // Only behind a known reverse proxy may X-Forwarded-For decide the client address (rate limits).
    trustProxy: config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    // the spec writes some routes with a trailing slash (GET /whatsapp/, GET /officialWhatsapp/): both forms answer
    // an e-mail address is a path parameter of DELETE /opt-outs/{channel}/{address} (up to 254
    // characters, URL-encoded): the default 100 would answer 414 before the route could
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 800 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerRunContext(app);
  registerWorkerGate(app, config);
  const routes: ApiRoute[] = [];
  app.addHook("onRoute", (r) => {
    // the API document's own routes (Swagger UI's files) are not API routes
    if (!r.url.startsWith("/api/") || (r.schema as { hide?: boolean } | undefined)?.hide) return;
    // read when asked: a domain's own onRoute hook (its tag, below) runs after this one
    for (const method of [r.method].flat()) {
      if (method !== "HEAD") routes.push({ method, url: r.url, get schema() { return r.schema; }, get config() { return r.config; } });
    }
  });

  // prepared statements outside transactions: one generic plan per statement and connection
  const plannedPool = createPool(databaseUrl, 8, app.log, { genericPlans: true });
  const sql = new Sql(pool, plannedPool);
  const tokens = new TokenService(config.jwtSecret, config.accessTokenTtlSeconds);
  // a worker takes no sockets: its events reach the web processes' sockets through Redis
  const realtime = new Realtime(config.role === "worker" ? null : app.server, sql, tokens, app.log);
  if (config.redisUrl) await realtime.useRedis(config.redisUrl);
  const jobs = new Jobs(databaseUrl, config.runJobs, app.log.child({ component: "jobs" }));
  const secrets = new SecretSealer(config.secretsKeys, config.jwtSecret);
  const metrics = new Metrics({ pool, sql, realtime, queues: () => jobs.names(), log: app.log });
  // every rate limit counts here: in Redis with REDIS_URL (all processes together), else in this process
  const counters: CounterStore = config.redisUrl ? await RedisCounterStore.connect(config.redisUrl, app.log) : new MemoryCounterStore();
  const limits = new RequestLimits(counters, config.rateLimits, metrics);
  const listener = new PgListener(databaseUrl, app.log.child({ component: "listen" }));
  const ctx: AppContext = { config, sql, databaseUrl, realtime, jobs, tokens, secrets, metrics, limits, listener, log: app.log };
  defineResealJob(ctx);
  const lifecycle: Lifecycle = { draining: false };
  metrics.observeRequests(app);

  await registerSecurityHeaders(app, { extraBiHosts: config.biAllowedHosts, publicUrl: config.publicUrl });
  await app.register(cookie);
  await app.register(rateLimit, { global: false, hook: "preHandler", store: fastifyStoreOf(counters) });
  await app.register(multipart, { limits: { fileSize: LIMITS.attachmentMaxBytes, files: 10, fields: 50 } });
  await registerOpenApi(app, SERVER_VERSION);
  registerProbes(app, ctx, lifecycle);
  metrics.registerRoute(app, config);

  await app.register(
    async (api) => {
      registerAuthHooks(api, ctx);
      for (const [tag, domain] of domains) {
        await api.register(async (scope) => {
          scope.addHook("onRoute", (r) => {
            r.config = Object.assign(r.config ?? {}, { tag });
          });
          await domain(scope.withTypeProvider<ZodTypeProvider>(), ctx);
        });
      }
    },
    { prefix: "/api" },
  );
  // the SMS campaigns' short links: {PUBLIC_URL}/s/<code>, public, outside /api
  registerShortLinkRoute(app, ctx);
  // e-mail links (open pixel, clicks, unsubscribe, sender verification): public, outside /api
  await app.register(async (scope) => emailPublicRoutes(scope, ctx));

  const webDist = config.webDist ?? path.resolve(import.meta.dirname, "../../web/dist");
  if (config.role !== "worker" && existsSync(path.join(webDist, "index.html"))) {
    // brotli/gzip files written by the web build are served to browsers that accept them; hashed
    // files under /assets never change (a new build gives new names), so browsers keep them for a
    // year; the page and the other files are revalidated on every load, so a new build shows at once
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
    app.get("/*", { config: { public: true } }, (request, reply) => {
      const file = request.url.split("?")[0] ?? "/";
      // an unknown API path is an API error, not the web app's page (a client would parse HTML as JSON)
      if (file === "/api" || file.startsWith("/api/")) return reply.callNotFound();
      // a pay link's token is a JWT (dots between base64url parts): the page, though it may end like a file name
      if (file.startsWith("/assets/") || (!file.startsWith(`${PAY_LINK_PATH}/`) && /\.[a-z0-9]+$/i.test(file))) {
        return reply.sendFile(file.replace(/^\//, ""));
      }
      return reply.sendFile("index.html");
    });
  }

  return {
    app,
    ctx,
    routes,
    async start() {
      // credentials stored in plaintext by older versions, or sealed in the v1 format, are sealed
      // before anything reads them (idempotent: a start with nothing to seal reads one page per column)
      await resealStoredSecrets(sql, secrets, app.log, "startup");
      await jobs.start();
    },
    drain() {
      lifecycle.draining = true;
    },
    async close() {
      // a keep-alive connection whose request is still running when the server closes would otherwise
      // stay open for Node's 5 s keep-alive timeout after its answer (only idle ones are closed at once)
      app.server.keepAliveTimeout = 200;
      // the WhatsApp connections first: their leases are freed before anything else can hang, so
      // another (or the restarted) process takes them over at once
      await channels(ctx).stopAll();
      await realtime.close();
      // CSV analyses and imports in worker threads: their jobs fail now and pg-boss retries them
      await stopWorkerThreads(ctx);
      await app.close();
      await jobs.stop();
      await counters.close();
      await listener.close();
      await plannedPool.end();
    },
  };
}
