import { EXTERNAL_API_RATE_PER_MINUTE, LIMITS, parseBiHosts } from "@atende/shared";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { loadOrCreateSecret } from "./core/secret-file.js";
import { KeyRingError, loadKeyRing, type KeyRing } from "./core/secrets/key-ring.js";
import type { RequestLimitsConfig } from "./core/rate-limit/request-limits.js";
import { loadPixConfig, PixConfigError, type PixConfig } from "./domains/billing/pix/config.js";

export const DEV_ADMIN_EMAIL = "admin@atende.local";
export const DEV_ADMIN_PASSWORD = "admin123";

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string;
  /**
   * SECRETS_KEYS: the keys that seal stored credentials (core/secrets, docs/settings.md). Outside
   * production the public development key when unset; production refuses to start without its own.
   */
  secretsKeys: KeyRing;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  adminEmail: string;
  adminPassword: string;
  /**
   * REPLACE_DEVELOPMENT_ADMIN_PASSWORD=true: a production start that finds a super administrator still
   * with the development password replaces it with ADMIN_PASSWORD instead of refusing to start
   * (db/development-password.ts, docs/deployment.md "The development password").
   */
  replaceDevelopmentAdminPassword: boolean;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  /** BI_ALLOWED_HOSTS: hosts whose dashboards the BI page may embed, added to BI_ALLOWED_HOSTS of @atende/shared. */
  biAllowedHosts: string[];
  /** The Graph API base with its version (WHATSAPP_GRAPH_URL + WHATSAPP_GRAPH_VERSION), e.g. https://graph.facebook.com/v23.0. */
  whatsappGraphUrl: string;
  /** Dialogflow ES API base (DIALOGFLOW_API_URL, default https://dialogflow.googleapis.com): queue integrations' detectIntent. */
  dialogflowApiUrl: string;
  webDist: string | undefined;
  logLevel: string;
  /** Trust X-Forwarded-* from a reverse proxy (TRUST_PROXY=true). */
  trustProxy: boolean;
  /** The first wait before another attempt of a message the provider refused for now (default: SEND_RETRY.baseMs). */
  sendRetryBaseMs?: number;
  /** How long a driver action carried to another process waits for its answer (default DRIVER_CALL_TIMEOUT_MS, 10 s; tests shorten it). */
  driverCallTimeoutMs?: number;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; unset, /metrics is open in development and absent (404) in production. */
  metricsToken: string | undefined;
  /** SHUTDOWN_DRAIN_SECONDS: after SIGTERM, /readyz answers 503 this long before the server stops taking requests (default 5 in production, 0 otherwise). */
  drainSeconds: number;
  /**
   * ROLE: what this process runs (docs/architecture.md "Process roles and fencing"). `web` serves HTTP
   * and sockets only; `worker` runs jobs, dispatchers, pollers and the WhatsApp sessions and answers only
   * /healthz, /readyz and /metrics over HTTP; `all` (the default) does both.
   */
  role: ProcessRole;
  /** Start the durable job workers, dispatchers and pollers in this process (ROLE not web, and RUN_JOBS not false). */
  runJobs: boolean;
  /** Run WhatsApp sessions (drivers) in this process: every role but web. */
  runSessions: boolean;
  /** Sandbox connections (a test phone in the browser): off in production unless ENABLE_SANDBOX=true. */
  enableSandbox: boolean;
  /** Production may run on the embedded PostgreSQL only when ALLOW_EMBEDDED_DATABASE=true. */
  allowEmbeddedDatabase: boolean;
  /** The PSP of the subscription checkout (PIX_* variables, domains/billing/pix/config.ts). */
  pix: PixConfig;
  /** SMS campaigns' provider (docs/settings.md "SMS"). */
  sms: SmsConfig;
  /** Per-company and per-token request limits (RATE_LIMIT_*, docs/settings.md "Request limits"). */
  rateLimits: RequestLimitsConfig;
  /**
   * CAMPAIGN_ANALYSIS_HEAP_MB: the old-generation cap of the worker thread that analyses a campaign's CSV
   * (WhatsApp, SMS, e-mail) (default 64, 16-4096). A file that needs more ends the campaign in ERROR.
   */
  campaignAnalysisHeapMb: number;
  /**
   * CONTACTS_IMPORT_HEAP_MB: the old-generation cap of the worker thread that imports a contacts CSV
   * in the background (default 64, 16-4096). A file that needs more ends the import failed.
   */
  contactsImportHeapMb: number;
  /**
   * CONTACTS_IMPORT_MAX_MB: the largest contacts file POST /contacts/import accepts, in MiB (default 5,
   * the spec's 5 MB of 2-administration §9; 1-1024). The upload is streamed to disk and imported as a
   * stream, so a larger setting costs disk, not memory; the web app keeps the spec's 5 MB check.
   */
  contactsImportMaxBytes: number;
}

/** A worker thread's heap cap in MB (default 64, 16-4096). */
function heapMb(env: NodeJS.ProcessEnv, name: string): number {
  const mb = Number(env[name] || 64);
  if (!Number.isInteger(mb) || mb < 16 || mb > 4096) throw new ConfigError(`${name} must be a whole number of MB from 16 to 4096 (got "${env[name]}")`);
  return mb;
}

/** CONTACTS_IMPORT_MAX_MB in bytes (default: the spec's limit, LIMITS.importMaxBytes). */
function importMaxBytes(env: NodeJS.ProcessEnv): number {
  const raw = env.CONTACTS_IMPORT_MAX_MB;
  if (raw === undefined || raw === "") return LIMITS.importMaxBytes;
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 1 || mb > 1024) throw new ConfigError(`CONTACTS_IMPORT_MAX_MB must be a whole number of MiB from 1 to 1024 (got "${raw}")`);
  return mb * 1024 * 1024;
}

/** RATE_LIMIT_* variables: requests a minute, 0 for no limit. */
export function loadRateLimits(env: NodeJS.ProcessEnv): RequestLimitsConfig {
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 10_000_000) throw new ConfigError(`${name} must be a whole number of requests a minute (0 for no limit), got "${raw}"`);
    return n;
  };
  return {
    companyPerMinute: read("RATE_LIMIT_COMPANY_PER_MINUTE", 12_000),
    tokenPerMinute: read("RATE_LIMIT_TOKEN_PER_MINUTE", 1_200),
    externalCompanyPerMinute: read("RATE_LIMIT_EXTERNAL_COMPANY_PER_MINUTE", 600),
    externalTokenPerMinute: read("RATE_LIMIT_EXTERNAL_TOKEN_PER_MINUTE", EXTERNAL_API_RATE_PER_MINUTE),
  };
}

export interface SmsConfig {
  /**
   * SMS_PROVIDER: sandbox (the default outside production) or twilio. Production without it has
   * "off" (campaigns can be prepared, not triggered) unless ENABLE_SANDBOX=true gives the sandbox.
   */
  provider: "sandbox" | "twilio" | "off";
  /** SMS_RATE_PER_SECOND: messages per second the account may send (default 10), never exceeded in any one-second window. */
  ratePerSecond: number;
  /** SMS_SANDBOX_FAILURE_RATE: share of sandbox messages that end undelivered (0-1, default 0.05). */
  sandboxFailureRate: number;
  /** SMS_SANDBOX_RECEIPT_MS: delay of the sandbox's delivery receipt (default 1500). */
  sandboxReceiptMs: number;
  twilio: {
    accountSid: string;
    authToken: string;
    from: string;
    messagingServiceSid: string;
    /** TWILIO_API_BASE_URL, default https://api.twilio.com. */
    apiBaseUrl: string;
  };
}

export function loadSmsConfig(env: NodeJS.ProcessEnv, nodeEnv: Config["env"]): SmsConfig {
  const provider = env.SMS_PROVIDER || (nodeEnv !== "production" || env.ENABLE_SANDBOX === "true" ? "sandbox" : "off");
  if (provider !== "sandbox" && provider !== "twilio" && provider !== "off") throw new ConfigError(`SMS_PROVIDER must be sandbox, twilio or off (got "${provider}")`);
  const rate = Number(env.SMS_RATE_PER_SECOND ?? 10);
  if (!Number.isInteger(rate) || rate < 1 || rate > 10000) throw new ConfigError("SMS_RATE_PER_SECOND must be a whole number from 1 to 10000");
  const failure = Number(env.SMS_SANDBOX_FAILURE_RATE ?? 0.05);
  if (!(failure >= 0 && failure <= 1)) throw new ConfigError("SMS_SANDBOX_FAILURE_RATE must be between 0 and 1");
  const sms: SmsConfig = {
    provider,
    ratePerSecond: rate,
    sandboxFailureRate: failure,
    sandboxReceiptMs: Math.max(0, Number(env.SMS_SANDBOX_RECEIPT_MS ?? 1500) || 0),
    twilio: {
      accountSid: env.TWILIO_ACCOUNT_SID ?? "",
      authToken: env.TWILIO_AUTH_TOKEN ?? "",
      from: env.TWILIO_FROM ?? "",
      messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID ?? "",
      apiBaseUrl: (env.TWILIO_API_BASE_URL || "https://api.twilio.com").replace(/\/+$/, ""),
    },
  };
  if (provider === "twilio") {
    const t = sms.twilio;
    if (!/^AC[0-9a-fA-F]{32}$/.test(t.accountSid) && nodeEnv === "production") throw new ConfigError("TWILIO_ACCOUNT_SID must be set (AC followed by 32 hex digits) when SMS_PROVIDER=twilio");
    if (!t.authToken) throw new ConfigError("TWILIO_AUTH_TOKEN must be set when SMS_PROVIDER=twilio");
    if (!t.from && !t.messagingServiceSid) throw new ConfigError("TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID must be set when SMS_PROVIDER=twilio");
    // http only to this machine (a local relay or a test double), never across a network
    if (nodeEnv === "production" && !t.apiBaseUrl.startsWith("https://") && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(t.apiBaseUrl)) {
      throw new ConfigError("TWILIO_API_BASE_URL must be https in production");
    }
  }
  if (nodeEnv === "production" && provider === "sandbox" && env.ENABLE_SANDBOX !== "true") {
    throw new ConfigError("SMS_PROVIDER=sandbox sends nothing: in production it needs ENABLE_SANDBOX=true");
  }
  return sms;
}

export class ConfigError extends Error {}

export const PROCESS_ROLES = ["all", "web", "worker"] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

function roleOf(value: string | undefined): ProcessRole {
  const role = value?.trim() || "all";
  if (!(PROCESS_ROLES as readonly string[]).includes(role)) throw new ConfigError(`ROLE must be all, web or worker (got "${role}")`);
  return role as ProcessRole;
}

function keyRingOf(env: NodeJS.ProcessEnv, production: boolean): KeyRing {
  try {
    return loadKeyRing(env.SECRETS_KEYS, production);
  } catch (err) {
    if (err instanceof KeyRingError) throw new ConfigError(err.message);
    throw err;
  }
}

function pixConfigOf(env: NodeJS.ProcessEnv, production: boolean): PixConfig {
  try {
    return loadPixConfig(env, production);
  } catch (err) {
    if (err instanceof PixConfigError) throw new ConfigError(err.message);
    throw err;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV === "production" ? "production" : env.NODE_ENV === "test" ? "test" : "development";
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  const role = roleOf(env.ROLE);
  const config: Config = {
    env: nodeEnv,
    port: Number(env.PORT ?? 8080),
    // A development server is reachable from this machine only, unless HOST says otherwise.
    host: env.HOST ?? (nodeEnv === "production" ? "0.0.0.0" : "127.0.0.1"),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    jwtSecret: env.JWT_SECRET || developmentSecret(nodeEnv, dataDir),
    secretsKeys: keyRingOf(env, nodeEnv === "production"),
    accessTokenTtlSeconds: Number(env.ACCESS_TOKEN_TTL_SECONDS ?? 900),
    refreshTokenTtlDays: Number(env.REFRESH_TOKEN_TTL_DAYS ?? 7),
    adminEmail: env.ADMIN_EMAIL ?? DEV_ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD ?? DEV_ADMIN_PASSWORD,
    replaceDevelopmentAdminPassword: env.REPLACE_DEVELOPMENT_ADMIN_PASSWORD === "true",
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? "Atende <no-reply@atende.local>",
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 8080}`,
    biAllowedHosts: parseBiHosts(env.BI_ALLOWED_HOSTS),
    whatsappGraphUrl: graphBaseUrl(env.WHATSAPP_GRAPH_URL, env.WHATSAPP_GRAPH_VERSION),
    dialogflowApiUrl: (env.DIALOGFLOW_API_URL || "https://dialogflow.googleapis.com").replace(/\/+$/, ""),
    webDist: env.WEB_DIST,
    logLevel: env.LOG_LEVEL ?? (nodeEnv === "test" ? "silent" : "info"),
    role,
    runJobs: role !== "web" && env.RUN_JOBS !== "false",
    runSessions: role !== "web",
    metricsToken: env.METRICS_TOKEN || undefined,
    drainSeconds: Number(env.SHUTDOWN_DRAIN_SECONDS ?? (nodeEnv === "production" ? 5 : 0)),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    enableSandbox: nodeEnv !== "production" || env.ENABLE_SANDBOX === "true",
    allowEmbeddedDatabase: env.ALLOW_EMBEDDED_DATABASE === "true",
    pix: pixConfigOf(env, nodeEnv === "production"),
    sms: loadSmsConfig(env, nodeEnv),
    rateLimits: loadRateLimits(env),
    campaignAnalysisHeapMb: heapMb(env, "CAMPAIGN_ANALYSIS_HEAP_MB"),
    contactsImportHeapMb: heapMb(env, "CONTACTS_IMPORT_HEAP_MB"),
    contactsImportMaxBytes: importMaxBytes(env),
  };
  if (!Number.isFinite(config.drainSeconds) || config.drainSeconds < 0 || config.drainSeconds > 60) {
    throw new ConfigError("SHUTDOWN_DRAIN_SECONDS must be a number of seconds from 0 to 60");
  }
  if (config.role !== "all" && !config.redisUrl) {
    // the sockets are on web processes and most events start on workers (sessions, jobs): only the
    // socket.io Redis adapter carries them across
    throw new ConfigError(`ROLE=${config.role} needs REDIS_URL: events of one process reach the browsers of another only through Redis`);
  }
  if (config.env === "production") {
    if (!env.JWT_SECRET || env.JWT_SECRET.length < 32) {
      throw new ConfigError("JWT_SECRET must be set to a random value of at least 32 characters in production");
    }

    if (!env.ADMIN_PASSWORD || config.adminPassword === DEV_ADMIN_PASSWORD || config.adminPassword.length < 8) {
      throw new ConfigError("ADMIN_PASSWORD must be set (8+ characters, not the development default) in production");
    }
  }
  return config;
}

export const DEFAULT_GRAPH_HOST = "https://graph.facebook.com";
/** A current Graph API version (Meta supports each for about two years). */
export const DEFAULT_GRAPH_VERSION = "v23.0";
const VERSION = /^v\d+\.\d+$/;

/**
 * WHATSAPP_GRAPH_URL is the host (a local fake in tests) and WHATSAPP_GRAPH_VERSION the API version.
 * A URL that still ends with a version (the older form of this setting) keeps it when no version is
 * set; both naming different versions is a configuration error.
 */
export function graphBaseUrl(url: string | undefined, version: string | undefined): string {
  const trimmed = (url || DEFAULT_GRAPH_HOST).replace(/\/+$/, "");
  const inUrl = /\/(v\d+\.\d+)$/.exec(trimmed)?.[1];
  const host = inUrl ? trimmed.slice(0, -inUrl.length - 1) : trimmed;
  const wanted = version?.trim() || inUrl || DEFAULT_GRAPH_VERSION;
  if (!VERSION.test(wanted)) throw new ConfigError(`WHATSAPP_GRAPH_VERSION must look like v23.0 (got "${wanted}")`);
  if (inUrl && version?.trim() && inUrl !== wanted) {
    throw new ConfigError(`WHATSAPP_GRAPH_URL names ${inUrl} but WHATSAPP_GRAPH_VERSION is ${wanted}: set the version in one place`);
  }
  return `${host}/${wanted}`;
}

/**
 * Checked by the server's start-up (not by `loadConfig`, whose callers may bring their own database):
 * production runs on an external PostgreSQL unless the embedded one is explicitly allowed.
 */
export function assertDatabaseChoice(config: Config): void {
  if (config.env === "production" && !config.databaseUrl && !config.allowEmbeddedDatabase) {
    throw new ConfigError(
      "DATABASE_URL must be set in production: the embedded PostgreSQL is meant for development and trials (set ALLOW_EMBEDDED_DATABASE=true to use it anyway)",
    );
  }
}

/**
 * Without JWT_SECRET: a random secret kept in the data directory (development), or one per process
 * (tests, which never touch the disk). Production never gets here (JWT_SECRET is required).
 */
function developmentSecret(env: Config["env"], dataDir: string): string {
  if (env === "production") return "";
  if (env === "test") return randomBytes(48).toString("base64url");
  return loadOrCreateSecret(dataDir);
}

function parseTrustProxy(value: string | undefined): boolean {
  return value === "true";
}
