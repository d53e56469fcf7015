import { parseBiHosts } from "@atende/shared";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { loadOrCreateSecret } from "./core/secret-file.js";
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
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  adminEmail: string;
  adminPassword: string;
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
  /** Start the durable job workers in this process. */
  runJobs: boolean;
  /** Sandbox connections (a test phone in the browser): off in production unless ENABLE_SANDBOX=true. */
  enableSandbox: boolean;
  /** Production may run on the embedded PostgreSQL only when ALLOW_EMBEDDED_DATABASE=true. */
  allowEmbeddedDatabase: boolean;
  /** The PSP of the subscription checkout (PIX_* variables, domains/billing/pix/config.ts). */
  pix: PixConfig;
}

export class ConfigError extends Error {}

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
  const config: Config = {
    env: nodeEnv,
    port: Number(env.PORT ?? 8080),
    // A development server is reachable from this machine only, unless HOST says otherwise.
    host: env.HOST ?? (nodeEnv === "production" ? "0.0.0.0" : "127.0.0.1"),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    jwtSecret: env.JWT_SECRET || developmentSecret(nodeEnv, dataDir),
    accessTokenTtlSeconds: Number(env.ACCESS_TOKEN_TTL_SECONDS ?? 900),
    refreshTokenTtlDays: Number(env.REFRESH_TOKEN_TTL_DAYS ?? 7),
    adminEmail: env.ADMIN_EMAIL ?? DEV_ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD ?? DEV_ADMIN_PASSWORD,
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? "Atende <no-reply@atende.local>",
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 8080}`,
    biAllowedHosts: parseBiHosts(env.BI_ALLOWED_HOSTS),
    whatsappGraphUrl: graphBaseUrl(env.WHATSAPP_GRAPH_URL, env.WHATSAPP_GRAPH_VERSION),
    dialogflowApiUrl: (env.DIALOGFLOW_API_URL || "https://dialogflow.googleapis.com").replace(/\/+$/, ""),
    webDist: env.WEB_DIST,
    logLevel: env.LOG_LEVEL ?? (nodeEnv === "test" ? "silent" : "info"),
    runJobs: env.RUN_JOBS !== "false",
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    enableSandbox: nodeEnv !== "production" || env.ENABLE_SANDBOX === "true",
    allowEmbeddedDatabase: env.ALLOW_EMBEDDED_DATABASE === "true",
    pix: pixConfigOf(env, nodeEnv === "production"),
  };
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
