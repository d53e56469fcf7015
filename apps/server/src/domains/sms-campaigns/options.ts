import { hostname } from "node:os";
import { randomBytes } from "node:crypto";

/** The SMS engine's timings; each can be set from the environment (tests and the bench make a crash visible fast). */
export interface SmsDispatchOptions {
  /** The sending lease lives this long without renewal (renewed before every batch). SMS_LEASE_SECONDS, default 15. */
  leaseMs: number;
  /** How often a process looks for the lease, due sandbox receipts and unconfirmed rows. SMS_POLL_MS, default 500. */
  pollMs: number;
  /** A row left `sending` with no receipt for this long ends failed "outcome not confirmed". SMS_RECONCILE_SECONDS, default 600. */
  reconcileMs: number;
  /** Tries of a send refused for now (429, 5xx) before it ends failed. SMS_MAX_ATTEMPTS, default 5. */
  maxAttempts: number;
  /** First retry delay, doubled per attempt. SMS_RETRY_BASE_MS, default 2000. */
  retryBaseMs: number;
  /** This process's id in the lease row. */
  ownerId: string;
  /** SMS_DISPATCH=true|false; unset, it follows RUN_JOBS. */
  enabled: boolean | null;
}

const num = (env: NodeJS.ProcessEnv, key: string, fallback: number) => {
  const v = Number(env[key]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

export function smsDispatchOptions(env: NodeJS.ProcessEnv = process.env): SmsDispatchOptions {
  return {
    leaseMs: num(env, "SMS_LEASE_SECONDS", 15) * 1000,
    pollMs: num(env, "SMS_POLL_MS", 500),
    reconcileMs: num(env, "SMS_RECONCILE_SECONDS", 600) * 1000,
    maxAttempts: num(env, "SMS_MAX_ATTEMPTS", 5),
    retryBaseMs: num(env, "SMS_RETRY_BASE_MS", 2000),
    ownerId: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    enabled: env.SMS_DISPATCH === "true" ? true : env.SMS_DISPATCH === "false" ? false : null,
  };
}
