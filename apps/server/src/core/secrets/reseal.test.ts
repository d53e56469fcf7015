import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, TEST_SECRETS_KEYS, type TestApp } from "../../../test/helper.js";
import { parseKeyRing } from "./key-ring.js";
import { resealStoredSecrets } from "./reseal.js";
import { SecretSealer } from "./sealer.js";

// test keys (random, made for this file only)
const K1 = "k1:HfXUA/jG2TdvdbD/G4ZpuA03MLT38v8xpyCZNAVdaKU=";
const K2 = "k2:udg/Wjr5Oat7J+l8G6CjikWuroLSvqYDN7PaVBtiFCA=";
// a value sealed by the former v1 format under this JWT_SECRET
const LEGACY_JWT = "legacy-jwt-secret-of-at-least-32-characters";
const V1 = "v1:9tdORBWXxFyJBDto:yGoD1pykLrrk1p8m-6UYiA:kMopcgsIRnpHIB28UuU";

// the test app sealed its own installation-wide values under the tests' key: every ring here lists it last
const ring = (keys: string) => parseKeyRing(`${keys},${TEST_SECRETS_KEYS}`);

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const quiet = { info: () => undefined, warn: () => undefined } as unknown as Parameters<typeof resealStoredSecrets>[2];

describe("stored secrets: start-up sealing and rotation", () => {
  it("seals plaintext rows and re-seals v1 values at start-up, idempotently, then rotation moves them to the new key", async () => {
    const t = await buildTenant(app);
    const queueId = await buildQueue(app.sql, t.companyId);
    const business = await app.sql.one<{ id: number }>(
      "INSERT INTO businesses (company_id, name, waba_id, access_token, app_secret, verify_token) VALUES ($1, 'BM', '5550001', 'EAAG-plain', 'app-plain', 'verify-plain') RETURNING id",
      [t.companyId],
    );
    const prompt = await app.sql.one<{ id: number }>("INSERT INTO prompts (company_id, name, prompt, api_key, queue_id) VALUES ($1, 'Bot', 'Olá', $2, $3) RETURNING id", [
      t.companyId,
      V1,
      queueId,
    ]);
    const wa = await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name, provider) VALUES ($1, 'Baileys', 'baileys') RETURNING id", [t.companyId]);
    await app.sql.exec("INSERT INTO baileys_auth (company_id, whatsapp_id, key, value) VALUES ($1, $2, 'creds', '{\"noiseKey\":1}')", [t.companyId, wa.id]);
    const k1 = new SecretSealer(ring(K1), LEGACY_JWT);

    const first = await resealStoredSecrets(app.sql, k1, quiet, "startup");
    expect(first.sealed).toBeGreaterThanOrEqual(4);
    expect(first.resealed).toBeGreaterThanOrEqual(1);
    const b = await app.sql.one<{ access_token: string; app_secret: string; verify_token: string }>("SELECT access_token, app_secret, verify_token FROM businesses WHERE id = $1", [business.id]);
    for (const v of Object.values(b)) expect(v).toMatch(/^v2:k1:/);
    expect(k1.open({ companyId: t.companyId, column: "businesses.access_token", row: business.id }, b.access_token)).toBe("EAAG-plain");
    const p = await app.sql.one<{ api_key: string }>("SELECT api_key FROM prompts WHERE id = $1", [prompt.id]);
    expect(p.api_key).toMatch(/^v2:k1:/);
    expect(k1.open({ companyId: t.companyId, column: "prompts.api_key", row: prompt.id }, p.api_key)).toBe("sk-legacy-9876");

    const creds = await app.sql.one<{ value: string }>("SELECT value FROM baileys_auth WHERE whatsapp_id = $1 AND key = 'creds'", [wa.id]);
    expect(creds.value).toMatch(/^v2:k1:/);
    expect(k1.open({ companyId: t.companyId, column: "baileys_auth.value", row: `${wa.id}/creds` }, creds.value)).toBe('{"noiseKey":1}');

    // a second start finds nothing to do
    expect(await resealStoredSecrets(app.sql, k1, quiet, "startup")).toEqual({ sealed: 0, resealed: 0, unreadable: 0 });

    // a new key first: start-up leaves k1 values alone (still opened), the rotation re-seals them under k2
    const k2 = new SecretSealer(ring(`${K2},${K1}`));
    expect((await resealStoredSecrets(app.sql, k2, quiet, "startup")).resealed).toBe(0);
    expect(k2.open({ companyId: t.companyId, column: "businesses.app_secret", row: business.id }, b.app_secret)).toBe("app-plain");
    const rotated = await resealStoredSecrets(app.sql, k2, quiet, "rotate");
    expect(rotated.resealed).toBeGreaterThanOrEqual(4);
    const after = await app.sql.one<{ access_token: string; app_secret: string }>("SELECT access_token, app_secret FROM businesses WHERE id = $1", [business.id]);
    expect(after.access_token).toMatch(/^v2:k2:/);
    // only k2 is needed now
    const onlyK2 = new SecretSealer(parseKeyRing(K2));
    expect(onlyK2.open({ companyId: t.companyId, column: "businesses.app_secret", row: business.id }, after.app_secret)).toBe("app-plain");
    expect(await resealStoredSecrets(app.sql, k2, quiet, "rotate")).toEqual({ sealed: 0, resealed: 0, unreadable: 0 });
  });

  it("leaves a value it cannot open as it is, and counts it", async () => {
    const t = await buildTenant(app);
    const queueId = await buildQueue(app.sql, t.companyId);
    const foreign = new SecretSealer(parseKeyRing("k9:" + Buffer.alloc(32, 9).toString("base64"))).seal({ companyId: t.companyId, column: "prompts.api_key", row: 1 }, "x");
    const prompt = await app.sql.one<{ id: number }>("INSERT INTO prompts (company_id, name, prompt, api_key, queue_id) VALUES ($1, 'Bot', 'Olá', $2, $3) RETURNING id", [
      t.companyId,
      foreign,
      queueId,
    ]);
    const counts = await resealStoredSecrets(app.sql, new SecretSealer(ring(K2)), quiet, "rotate");
    expect(counts.unreadable).toBe(1);
    expect((await app.sql.one<{ api_key: string }>("SELECT api_key FROM prompts WHERE id = $1", [prompt.id])).api_key).toBe(foreign);
    // the API shows no key for it (the owner types it again), and no error
    const owner = await buildUser(app.sql, t.companyId, { profile: "admin", super: true, name: "Super" });
    const res = await app.api("GET", `/api/prompt/${prompt.id}`, { token: await app.login(owner.email) });
    expect(res.statusCode).toBe(200);
    expect(res.json().apiKey).toBe("");
  });
});
