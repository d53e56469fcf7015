import type { Config } from "../../config.js";

/** E-mail campaign settings, read from the environment once (like the WhatsApp dispatch's options). */
export interface EmailOptions {
  /** CAMPAIGN_SMTP_URL, else SMTP_URL; none → the sandbox mailbox. */
  smtpUrl: string | null;
  /** Pooled SMTP connections (EMAIL_SMTP_CONNECTIONS, default 5). */
  maxConnections: number;
  /** Messages per second, never exceeded in any one-second window (EMAIL_RATE_PER_SECOND, default 10). */
  ratePerSecond: number;
  /** Retries of a 4xx or a dropped connection (EMAIL_MAX_ATTEMPTS, default 5), delay EMAIL_RETRY_BASE_MS (5000) × 2^attempt. */
  maxAttempts: number;
  retryBaseMs: number;
  leaseMs: number;
  pollMs: number;
  /** A row left `sending` this long by a dead process ends `unconfirmed` (EMAIL_RECONCILE_SECONDS, default 600). */
  reconcileMs: number;
  /** The VERP bounce domain (BOUNCE_DOMAIN): bounces+<token>@domain as the envelope sender; unset, the From address. */
  bounceDomain: string | null;
  /** BOUNCE_SMTP_PORT: the inbound SMTP listener of asynchronous bounces (RFC 3464 reports to the VERP addresses); unset, off. */
  bounceSmtpPort: number | null;
  /** BOUNCE_SMTP_HOST: the address it listens on (default HOST). */
  bounceSmtpHost: string | null;
  /** EMAIL_DISPATCH=true|false; unset, follows RUN_JOBS. */
  enabled: boolean | null;
}

const num = (env: NodeJS.ProcessEnv, key: string, fallback: number) => {
  const v = Number(env[key]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

/** A TCP port 1-65535, else null (off). */
function port(value: string | undefined): number | null {
  const v = Number(value);
  return Number.isInteger(v) && v > 0 && v < 65536 ? v : null;
}

export function emailOptions(config: Pick<Config, "smtpUrl" | "env">, env: NodeJS.ProcessEnv = process.env): EmailOptions {
  const url = env.CAMPAIGN_SMTP_URL || config.smtpUrl || null;
  return {
    // development always uses the sandbox unless a campaign relay is named explicitly
    smtpUrl: config.env === "development" && !env.CAMPAIGN_SMTP_URL ? null : url,
    maxConnections: num(env, "EMAIL_SMTP_CONNECTIONS", 5),
    ratePerSecond: num(env, "EMAIL_RATE_PER_SECOND", 10),
    maxAttempts: num(env, "EMAIL_MAX_ATTEMPTS", 5),
    retryBaseMs: num(env, "EMAIL_RETRY_BASE_MS", 5000),
    leaseMs: num(env, "EMAIL_LEASE_SECONDS", 15) * 1000,
    pollMs: num(env, "EMAIL_POLL_MS", 1000),
    reconcileMs: num(env, "EMAIL_RECONCILE_SECONDS", 600) * 1000,
    bounceDomain: env.BOUNCE_DOMAIN || null,
    bounceSmtpPort: port(env.BOUNCE_SMTP_PORT),
    bounceSmtpHost: env.BOUNCE_SMTP_HOST || null,
    enabled: env.EMAIL_DISPATCH === "true" ? true : env.EMAIL_DISPATCH === "false" ? false : null,
  };
}
