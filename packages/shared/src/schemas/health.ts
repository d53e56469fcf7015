import { z } from "zod";

/** GET /api/health: the database answers. */
export const healthStatus = z.object({ status: z.literal("ok") });

/** GET /healthz: the process is alive (nothing else is checked). */
export const liveness = z.object({ status: z.literal("alive") });

const check = z.enum(["ok", "failed", "not configured"]).describe("ok, failed, or not configured (Redis without REDIS_URL)");

/**
 * GET /readyz: 200 when this process may take traffic (database reachable, every migration applied,
 * Redis reachable when REDIS_URL is set), 503 otherwise, and 503 "draining" once it is shutting down.
 */
export const readiness = z.object({
  status: z.enum(["ready", "not ready", "draining"]),
  checks: z.object({
    database: check,
    migrations: check.describe("ok when every migration file of this version is applied"),
    redis: check,
  }),
  /** Migration files of this version not yet applied (a newer process is deploying, or a failed migration). */
  pendingMigrations: z.array(z.string()).optional(),
});
export type Readiness = z.infer<typeof readiness>;
