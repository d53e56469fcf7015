import type { FastifyInstance } from "fastify";
import type { Config } from "../config.js";

/**
 * Process roles (ROLE, docs/architecture.md "Process roles and fencing"): what one server process runs.
 * `web` serves the API, the web app and the sockets; `worker` runs the durable jobs, the campaign
 * dispatchers, the pollers and the WhatsApp sessions; `all` (the default) runs everything, as one
 * process always did.
 */

/**
 * Whether this process runs a background loop (a dispatcher, a poller) that may also be switched on or
 * off by its own setting (`CAMPAIGN_DISPATCH`, `SMS_DISPATCH`, `EMAIL_DISPATCH`): never on a web process,
 * else the explicit setting, else RUN_JOBS.
 */
export function runsBackground(config: Pick<Config, "role" | "runJobs">, explicit?: boolean | null): boolean {
  if (config.role === "web") return false;
  return explicit ?? config.runJobs;
}

/** The only HTTP paths a worker answers: the probes and the metrics (for the orchestrator and Prometheus). */
const WORKER_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * A worker registers every domain (their jobs and loops are defined there) but answers nothing else over
 * HTTP: any other path is 404 `ERR_NOT_FOUND`, so a load balancer that sends it traffic by mistake gets
 * a clear answer instead of a half-served app. Its socket.io server refuses connections (core/realtime.ts).
 */
export function registerWorkerGate(app: FastifyInstance, config: Pick<Config, "role">): void {
  if (config.role !== "worker") return;
  app.addHook("onRequest", async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    if (WORKER_PATHS.has(pathname)) return;
    return reply.status(404).send({ error: "ERR_NOT_FOUND", message: "Este processo é um worker: ele não atende a API" });
  });
}
