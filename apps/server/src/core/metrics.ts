import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type pg from "pg";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { z } from "zod";
import type { Sql } from "../db/sql.js";
import { AppError } from "./errors.js";
import type { Realtime } from "./realtime.js";

/** The channels whose campaign sends are counted. */
export type SendChannel = "whatsapp" | "sms" | "email";
/** A send's outcome as every channel reports it: accepted, refused for good, or to be tried again. */
export type SendOutcome = "sent" | "failed" | "retry";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The process's Prometheus metrics (prom-client, one registry per app so tests may run several):
 * HTTP latency by route pattern and status class, job queues, webhook lag, campaign sends, sockets,
 * the database pool, and Node's default process metrics. Queue, socket and pool figures are read when
 * Prometheus scrapes (one grouped query on the job table), nothing runs in between.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly http: Histogram<"method" | "route" | "status_class">;
  private readonly webhookLag: Histogram;
  private readonly sends: Counter<"channel" | "outcome">;
  private readonly rateLimited: Counter<"scope">;

  constructor(deps: { pool: pg.Pool; sql: Sql; realtime: Realtime; queues: () => string[]; log: FastifyBaseLogger }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: "atende_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route pattern (unmatched: no route) and status class",
      labelNames: ["method", "route", "status_class"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.webhookLag = new Histogram({
      name: "atende_webhook_lag_seconds",
      help: "Time from a Cloud API webhook delivery's receipt to the end of its processing",
      buckets: LAG_BUCKETS,
      registers,
    });
    this.sends = new Counter({
      name: "atende_campaign_sends_total",
      help: "Campaign messages handed to the provider, by channel and outcome (sent, failed for good, retry later)",
      labelNames: ["channel", "outcome"],
      registers,
    });
    this.rateLimited = new Counter({
      name: "atende_rate_limited_total",
      help: "Requests refused with 429 by the per-company and per-token request limits, by scope",
      labelNames: ["scope"],
      registers,
    });
    // one statement fills the three job gauges: the first gauge collected in a scrape runs it, the others share it
    let reading: Promise<void> | null = null;
    const readQueues = () =>
      (reading ??= readJobQueues(deps.sql)
        .then((rows) => {
          // every defined queue shows, at 0 when empty
          for (const name of deps.queues()) for (const g of jobGauges) g.set({ queue: name }, 0);
          for (const r of rows) {
            queued.set({ queue: r.name }, r.due);
            scheduled.set({ queue: r.name }, r.later);
            oldest.set({ queue: r.name }, r.oldest_s ?? 0);
          }
        })
        .catch((err: unknown) => {
          // the scrape still answers with the other metrics; the queue gauges are left out of it
          deps.log.warn({ err }, "metrics: could not read the job queues");
          for (const g of jobGauges) g.reset();
        })
        .finally(() => setImmediate(() => (reading = null))));
    const queued = new Gauge({ name: "atende_job_queue_depth", help: "Jobs due and waiting for a worker, per queue", labelNames: ["queue"], registers, collect: readQueues });
    const scheduled = new Gauge({ name: "atende_job_queue_scheduled", help: "Jobs waiting for their start time, per queue", labelNames: ["queue"], registers, collect: readQueues });
    const oldest = new Gauge({
      name: "atende_job_queue_oldest_age_seconds",
      help: "How long the oldest due job of each queue has been waiting for a worker",
      labelNames: ["queue"],
      registers,
      collect: readQueues,
    });
    const jobGauges = [queued, scheduled, oldest];
    new Gauge({
      name: "atende_sockets_connected",
      help: "socket.io clients connected to this process",
      registers,
      collect() {
        this.set(deps.realtime.io.of("/").sockets.size);
      },
    });
    new Gauge({
      name: "atende_db_pool_connections",
      help: "The database pool's connections by state (total, idle, waiting: requests queued for one)",
      labelNames: ["state"],
      registers,
      collect() {
        this.set({ state: "total" }, deps.pool.totalCount);
        this.set({ state: "idle" }, deps.pool.idleCount);
        this.set({ state: "waiting" }, deps.pool.waitingCount);
      },
    });
  }

  /** Times every request (onResponse: the route's pattern, never the raw URL, so ids add no series). */
  observeRequests(app: FastifyInstance): void {
    app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done) => {
      this.http.observe(
        { method: request.method, route: request.routeOptions.url ?? "unmatched", status_class: `${Math.floor(reply.statusCode / 100)}xx` },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  /** A webhook delivery finished processing; `receivedAt` is when its POST arrived (ms since the epoch). */
  webhookProcessed(receivedAt: number | Date): void {
    this.webhookLag.observe(Math.max(0, Date.now() - Number(receivedAt)) / 1000);
  }

  /** A request was refused by a request limit (core/rate-limit/request-limits.ts). */
  countRateLimited(scope: string): void {
    this.rateLimited.inc({ scope });
  }

  /** A dispatcher recorded a batch of sends. */
  countSends(channel: SendChannel, outcomes: SendOutcome[]): void {
    const counts = new Map<SendOutcome, number>();
    for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
    for (const [outcome, n] of counts) this.sends.inc({ channel, outcome }, n);
  }

  /**
   * GET /metrics: with METRICS_TOKEN set, only with `Authorization: Bearer <token>`; without it, open in
   * development and test, and absent (404) in production, so a forgotten token never exposes it.
   */
  registerRoute(app: FastifyInstance, config: { env: string; metricsToken: string | undefined }): void {
    const expected = config.metricsToken ? digest(config.metricsToken) : null;
    app.get("/metrics", { config: { public: true }, schema: { produces: ["text/plain"], response: { 200: metricsText } } as object }, async (request, reply) => {
      if (!expected && config.env === "production") return reply.callNotFound();
      if (expected) {
        const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
        if (!given || !timingSafeEqual(digest(given), expected)) throw new AppError("ERR_NO_PERMISSION", "Token de métricas inválido", {}, 401);
      }
      const text = await this.registry.metrics();
      return reply.type(this.registry.contentType).send(text);
    });
  }
}

const metricsText = z.string().describe("Prometheus text exposition format");

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Each queue's waiting jobs in one grouped read of pg-boss's job table (its fetch index covers
 * `state < 'active'`): due now, due later, and the wait of the oldest due one.
 */
function readJobQueues(sql: Sql) {
  return sql.many<{ name: string; due: number; later: number; oldest_s: number | null }>(
    `SELECT name,
            count(*) FILTER (WHERE start_after <= now())::int AS due,
            count(*) FILTER (WHERE start_after > now())::int AS later,
            extract(epoch FROM now() - min(start_after) FILTER (WHERE start_after <= now()))::float8 AS oldest_s
       FROM pgboss.job WHERE state < 'active' GROUP BY name`,
  );
}
