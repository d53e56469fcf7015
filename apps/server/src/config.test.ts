import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_SECRETS_KEYS as KEYS } from "../test/factories.js";
import { assertDatabaseChoice, ConfigError, loadConfig } from "./config.js";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "atende-config-"));

describe("configuration", () => {
  it("gives a development installation without JWT_SECRET its own random secret, kept in DATA_DIR/secret (0600)", () => {
    const dir = tempDir();
    const first = loadConfig({ NODE_ENV: "development", DATA_DIR: dir });
    const file = path.join(dir, "secret");
    expect(first.jwtSecret).not.toBe("development-only-jwt-secret-change-me");
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, "utf8").trim()).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ NODE_ENV: "development", DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    expect(loadConfig({ NODE_ENV: "development", DATA_DIR: tempDir() }).jwtSecret).not.toBe(first.jwtSecret);
  });

  it("binds a development server to 127.0.0.1 unless HOST says otherwise", () => {
    const dir = tempDir();
    expect(loadConfig({ NODE_ENV: "development", DATA_DIR: dir }).host).toBe("127.0.0.1");
    expect(loadConfig({ NODE_ENV: "development", DATA_DIR: dir, HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  it("requires JWT_SECRET of 32+ characters in production", () => {
    const prod = { NODE_ENV: "production", ADMIN_PASSWORD: "a-real-admin-password", SECRETS_KEYS: KEYS };
    expect(() => loadConfig(prod)).toThrow(ConfigError);
    expect(() => loadConfig({ ...prod, JWT_SECRET: "short" })).toThrow(ConfigError);
    expect(loadConfig({ ...prod, JWT_SECRET: "x".repeat(32) }).jwtSecret).toBe("x".repeat(32));
  });

  it("refuses the embedded database in production unless explicitly allowed", () => {
    const prod = { NODE_ENV: "production", ADMIN_PASSWORD: "a-real-admin-password", JWT_SECRET: "y".repeat(40), SECRETS_KEYS: KEYS };
    expect(() => assertDatabaseChoice(loadConfig(prod))).toThrow(/DATABASE_URL must be set in production/);
    expect(() => assertDatabaseChoice(loadConfig({ ...prod, ALLOW_EMBEDDED_DATABASE: "true" }))).not.toThrow();
    expect(() => assertDatabaseChoice(loadConfig({ ...prod, DATABASE_URL: "postgres://db/atende" }))).not.toThrow();
  });

  it("CAMPAIGN_ANALYSIS_HEAP_MB: 64 MB by default, a whole number from 16 to 4096", () => {
    const env = { NODE_ENV: "test" };
    expect(loadConfig(env).campaignAnalysisHeapMb).toBe(64);
    expect(loadConfig({ ...env, CAMPAIGN_ANALYSIS_HEAP_MB: "128" }).campaignAnalysisHeapMb).toBe(128);
    for (const bad of ["8", "5000", "64.5", "lots"]) {
      expect(() => loadConfig({ ...env, CAMPAIGN_ANALYSIS_HEAP_MB: bad }), bad).toThrow(/CAMPAIGN_ANALYSIS_HEAP_MB must be a whole number of MB from 16 to 4096/);
    }
  });

  it("CONTACTS_IMPORT_MAX_MB: the spec's 5 MB (5242880 bytes) by default, a whole number of MiB from 1 to 1024", () => {
    const env = { NODE_ENV: "test" };
    expect(loadConfig(env).contactsImportMaxBytes).toBe(5_242_880);
    expect(loadConfig({ ...env, CONTACTS_IMPORT_MAX_MB: "50" }).contactsImportMaxBytes).toBe(52_428_800);
    for (const bad of ["0", "2048", "7.5", "lots"]) {
      expect(() => loadConfig({ ...env, CONTACTS_IMPORT_MAX_MB: bad }), bad).toThrow(/CONTACTS_IMPORT_MAX_MB must be a whole number of MiB from 1 to 1024/);
    }
  });
});

// NODE_ENV=test: no secret file is written for these.
const T = { NODE_ENV: "test" };

describe("Graph API base URL (WHATSAPP_GRAPH_URL + WHATSAPP_GRAPH_VERSION)", () => {
  it("defaults to Meta's host with a current version", () => {
    expect(loadConfig(T).whatsappGraphUrl).toBe("https://graph.facebook.com/v23.0");
  });

  it("puts the configured version after the configured host", () => {
    expect(loadConfig({ ...T, WHATSAPP_GRAPH_URL: "http://127.0.0.1:9999/", WHATSAPP_GRAPH_VERSION: "v24.0" }).whatsappGraphUrl).toBe("http://127.0.0.1:9999/v24.0");
    expect(loadConfig({ ...T, WHATSAPP_GRAPH_VERSION: "v22.0" }).whatsappGraphUrl).toBe("https://graph.facebook.com/v22.0");
  });

  it("keeps the version of an older URL that still carries one, and refuses two different versions or a malformed one", () => {
    expect(loadConfig({ ...T, WHATSAPP_GRAPH_URL: "https://graph.facebook.com/v21.0" }).whatsappGraphUrl).toBe("https://graph.facebook.com/v21.0");
    expect(loadConfig({ ...T, WHATSAPP_GRAPH_URL: "https://graph.facebook.com/v23.0", WHATSAPP_GRAPH_VERSION: "v23.0" }).whatsappGraphUrl).toBe(
      "https://graph.facebook.com/v23.0",
    );
    expect(() => loadConfig({ ...T, WHATSAPP_GRAPH_URL: "https://graph.facebook.com/v21.0", WHATSAPP_GRAPH_VERSION: "v23.0" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...T, WHATSAPP_GRAPH_VERSION: "23" })).toThrow(ConfigError);
  });
});

describe("SMS settings", () => {
  const prod = { NODE_ENV: "production", ADMIN_PASSWORD: "a-real-admin-password", JWT_SECRET: "y".repeat(40), SECRETS_KEYS: KEYS };
  const twilio = { SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: `AC${"a".repeat(32)}`, TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "+15005550006" };
  it("uses the sandbox outside production and is off in production unless a provider is chosen", () => {
    expect(loadConfig({ NODE_ENV: "development" }).sms.provider).toBe("sandbox");
    expect(loadConfig(prod).sms.provider).toBe("off");
    expect(loadConfig({ ...prod, ENABLE_SANDBOX: "true" }).sms.provider).toBe("sandbox");
    expect(loadConfig({ ...prod, ...twilio }).sms).toMatchObject({ provider: "twilio", ratePerSecond: 10, twilio: { apiBaseUrl: "https://api.twilio.com" } });
  });
  it("refuses unsafe or incomplete settings in production", () => {
    expect(() => loadConfig({ ...prod, SMS_PROVIDER: "sandbox" })).toThrow(/ENABLE_SANDBOX/);
    expect(() => loadConfig({ ...prod, ...twilio, TWILIO_AUTH_TOKEN: "" })).toThrow(/TWILIO_AUTH_TOKEN/);
    expect(() => loadConfig({ ...prod, ...twilio, TWILIO_FROM: "" })).toThrow(/TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID/);
    expect(() => loadConfig({ ...prod, ...twilio, TWILIO_ACCOUNT_SID: "x" })).toThrow(/TWILIO_ACCOUNT_SID/);
    expect(() => loadConfig({ ...prod, ...twilio, TWILIO_API_BASE_URL: "http://api.example.com" })).toThrow(/https/);
    expect(() => loadConfig({ ...prod, SMS_PROVIDER: "nexmo" })).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ ...prod, ...twilio, SMS_RATE_PER_SECOND: "0" })).toThrow(/SMS_RATE_PER_SECOND/);
    expect(() => loadConfig({ NODE_ENV: "development", SMS_SANDBOX_FAILURE_RATE: "2" })).toThrow(/SMS_SANDBOX_FAILURE_RATE/);
  });
});
