import { hostname } from "node:os";
import { randomBytes } from "node:crypto";

/**
 * The engine's timings. Defaults suit production; every one can be set from the environment (read
 * once, when the domain is built), which the tests and the bench use to make a crash visible fast.
 */
export interface DispatchOptions {
  /** A number's lease lives this long without renewal (renewed with every batch). CAMPAIGN_LEASE_SECONDS, default 15. */
  leaseMs: number;
  /** How often a process looks for numbers of running campaigns it could drive. CAMPAIGN_POLL_MS, default 1000. */
  pollMs: number;
  /**
   * A row left `sending` (its process died between claiming and recording Meta's answer) that no
   * status webhook confirms within this window ends `failed` ("outcome not confirmed").
   * CAMPAIGN_RECONCILE_SECONDS, default 600 (10 minutes).
   */
  reconcileMs: number;
  /** Retries of a send Meta refused for now (130429, 131056, 5xx, network) before it ends failed. CAMPAIGN_MAX_ATTEMPTS, default 5. */
  maxAttempts: number;
  /** First retry delay; doubled per attempt. CAMPAIGN_RETRY_BASE_MS, default 2000. */
  retryBaseMs: number;
  /** Never two messages to one phone from one number within this time (Meta's pair rate limit). */
  pairGapMs: number;
  /** The simulated sandbox statuses: sent, delivered, read after these delays. CAMPAIGN_SANDBOX_STEP_MS, default 1000. */
  sandboxStepMs: number;
  /** This process's id in the lease table. */
  ownerId: string;
  /**
   * Whether this process runs the dispatcher: CAMPAIGN_DISPATCH=true|false; unset, it follows RUN_JOBS
   * (every job-running process dispatches).
   */
  enabled: boolean | null;
}

const num = (env: NodeJS.ProcessEnv, key: string, fallback: number) => {
  const v = Number(env[key]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export function dispatchOptions(env: NodeJS.ProcessEnv = process.env): DispatchOptions {
  return {
    leaseMs: num(env, "CAMPAIGN_LEASE_SECONDS", 15) * 1000,
    pollMs: num(env, "CAMPAIGN_POLL_MS", 1000),
    reconcileMs: num(env, "CAMPAIGN_RECONCILE_SECONDS", 600) * 1000,
    maxAttempts: num(env, "CAMPAIGN_MAX_ATTEMPTS", 5),
    retryBaseMs: num(env, "CAMPAIGN_RETRY_BASE_MS", 2000),
    pairGapMs: 6000,
    sandboxStepMs: num(env, "CAMPAIGN_SANDBOX_STEP_MS", 1000),
    ownerId: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    enabled: env.CAMPAIGN_DISPATCH === "true" ? true : env.CAMPAIGN_DISPATCH === "false" ? false : null,
  };
}
