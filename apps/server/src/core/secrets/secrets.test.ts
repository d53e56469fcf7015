import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import { DEV_SECRETS_KEYS, loadKeyRing, parseKeyRing } from "./key-ring.js";
import { maskSecret, SecretSealer, SecretUnreadable, type SecretPlace } from "./sealer.js";

// test keys (random, made for this file only)
const K1 = "k1:HfXUA/jG2TdvdbD/G4ZpuA03MLT38v8xpyCZNAVdaKU=";
const K2 = "k2:udg/Wjr5Oat7J+l8G6CjikWuroLSvqYDN7PaVBtiFCA=";
const place: SecretPlace = { companyId: 7, column: "prompts.api_key", row: 42 };
// sealed by the former format (v1: AES-256-GCM under HKDF(JWT_SECRET)), kept as written then
const LEGACY_JWT = "legacy-jwt-secret-of-at-least-32-characters";
const V1 = "v1:9tdORBWXxFyJBDto:yGoD1pykLrrk1p8m-6UYiA:kMopcgsIRnpHIB28UuU";

const sealer = (keys: string, jwt?: string) => new SecretSealer(parseKeyRing(keys), jwt);

describe("stored secrets: envelope sealing", () => {
  it("seals with the first key's id, differently each time, and opens the value again", () => {
    const s = sealer(`${K2},${K1}`);
    const a = s.seal(place, "sk-live-123456");
    const b = s.seal(place, "sk-live-123456");
    expect(a).not.toBe(b);
    expect(a).not.toContain("sk-live");
    expect(a.split(":")).toHaveLength(6);
    expect(a.startsWith("v2:k2:")).toBe(true);
    expect(s.open(place, a)).toBe("sk-live-123456");
    expect(s.seal(place, "")).toBe("");
    expect(s.open(place, "")).toBe("");
    expect(maskSecret("sk-live-123456")).toBe("••••3456");
  });

  it("refuses a key id the ring does not list, and another key under the same id", () => {
    const a = sealer(K1).seal(place, "token");
    expect(() => sealer(K2).open(place, a)).toThrow(/key "k1", which SECRETS_KEYS does not list/);
    const sameIdOtherKey = `k1:${K2.slice(3)}`;
    expect(() => sealer(sameIdOtherKey).open(place, a)).toThrow(SecretUnreadable);
  });

  it("refuses a value altered anywhere: wrapped key, iv, tag or ciphertext", () => {
    const s = sealer(K1);
    const a = s.seal(place, "token-value");
    for (const i of [2, 3, 4, 5]) {
      const parts = a.split(":");
      parts[i] = (parts[i]![0] === "A" ? "B" : "A") + parts[i]!.slice(1);
      expect(() => s.open(place, parts.join(":"))).toThrow(SecretUnreadable);
    }
    expect(() => s.open(place, "plain-token")).toThrow(/not a sealed value/);
  });

  it("binds a value to its company, column and row: moved elsewhere it does not open", () => {
    const s = sealer(K1);
    const a = s.seal(place, "token-value");
    expect(() => s.open({ ...place, companyId: 8 }, a)).toThrow(SecretUnreadable);
    expect(() => s.open({ ...place, column: "prompts.voice_key" }, a)).toThrow(SecretUnreadable);
    expect(() => s.open({ ...place, row: 43 }, a)).toThrow(SecretUnreadable);
  });

  it("rotation: a new first key seals, the old one still opens; state tells what to re-seal", () => {
    const old = sealer(K1).seal(place, "before");
    const ring = sealer(`${K2},${K1}`);
    expect(ring.open(place, old)).toBe("before");
    expect(ring.state(old)).toBe("old-key");
    expect(ring.state(ring.seal(place, "after"))).toBe("current");
    expect(ring.state("plain")).toBe("plaintext");
    expect(ring.state(V1)).toBe("v1");
    expect(ring.state("")).toBe("empty");
  });

  it("opens v1 values with the JWT_SECRET that sealed them, and refuses them without it", () => {
    expect(sealer(K1, LEGACY_JWT).open(place, V1)).toBe("sk-legacy-9876");
    expect(() => sealer(K1, "another-jwt-secret-of-at-least-32-chars").open(place, V1)).toThrow(SecretUnreadable);
    expect(() => sealer(K1).open(place, V1)).toThrow(SecretUnreadable);
  });
});

describe("SECRETS_KEYS", () => {
  const prod = { NODE_ENV: "production", JWT_SECRET: "j".repeat(40), ADMIN_PASSWORD: "a-strong-password", DATABASE_URL: "postgres://x/y", SMS_PROVIDER: "off" };

  it("production refuses to start without keys, or with the public development key", () => {
    expect(() => loadConfig(prod)).toThrow(/SECRETS_KEYS must be set in production/);
    expect(() => loadConfig({ ...prod, SECRETS_KEYS: DEV_SECRETS_KEYS })).toThrow(/development key, which is public/);
    expect(() => loadConfig({ ...prod, SECRETS_KEYS: `${K1},${DEV_SECRETS_KEYS}` })).toThrow(/development key/);
    expect(loadConfig({ ...prod, SECRETS_KEYS: `${K2},${K1}` }).secretsKeys.primary).toBe("k2");
  });

  it("development and tests get the development key; malformed lists are refused", () => {
    expect(loadConfig({ NODE_ENV: "test" }).secretsKeys.primary).toBe("dev-insecure");
    expect(() => loadKeyRing("k1:c2hvcnQ=", false)).toThrow(/32 bytes/);
    expect(() => loadKeyRing("bad id:HfXUA/jG2TdvdbD/G4ZpuA03MLT38v8xpyCZNAVdaKU=", false)).toThrow(/kid/);
    expect(() => loadKeyRing(`${K1},${K1}`, false)).toThrow(/twice/);
  });
});
