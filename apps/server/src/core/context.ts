import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import type { Sql } from "../db/sql.js";
import type { Jobs } from "./jobs.js";
import type { Metrics } from "./metrics.js";
import type { RequestLimits } from "./rate-limit/request-limits.js";
import type { PgListener } from "./pg-listener.js";
import type { Realtime } from "./realtime.js";
import type { SecretSealer } from "./secrets/sealer.js";
import type { TokenService } from "./tokens.js";

/** What every domain gets: configuration, the database, real-time, jobs, tokens, the secret sealer, metrics and the logger. */
export interface AppContext {
  config: Config;
  sql: Sql;
  /** The database's connection string, for code that opens connections of its own (the campaign analysis's worker thread). */
  databaseUrl: string;
  realtime: Realtime;
  jobs: Jobs;
  tokens: TokenService;
  /** Seals and opens stored credentials (core/secrets): opened only where the server uses them. */
  secrets: SecretSealer;
  /** Prometheus metrics (GET /metrics): dispatchers count their sends, webhooks their lag. */
  metrics: Metrics;
  /** Per-company and per-token request limits (core/rate-limit), shared across processes with REDIS_URL. */
  limits: RequestLimits;
  /** PostgreSQL LISTEN/NOTIFY of this process (forwarded driver actions, freed connection leases). */
  listener: PgListener;
  /**
   * The server's pino logger (Fastify's), for code that runs outside a request: jobs, channels,
   * timers. Request code logs with `request.log` so the line carries the request id.
   */
  log: FastifyBaseLogger;
}
