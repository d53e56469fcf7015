import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestPki, type TestPki } from "../../../../test/fake-pix-psp/certificates.js";
import { startFakePsp, type FakePsp } from "../../../../test/fake-pix-psp/server.js";
import { BcbApiPixDriver } from "./bcb-api-driver.js";
import { loadPixConfig, type PixConfig } from "./config.js";
import { PixUnavailable } from "./driver.js";
import { expectEvery } from "../../../../test/expect-every.js";

let pki: TestPki;
let psp: FakePsp;

const TXID = "atendeTeste0000000000000000000001";

function configFor(o: Partial<PixConfig> = {}): PixConfig {
  return {
    provider: "bcb",
    baseUrl: psp.url,
    tokenUrl: `${psp.url}/oauth/token`,
    clientId: psp.clientId,
    clientSecret: psp.clientSecret,
    certFile: pki.clientCertFile,
    keyFile: pki.clientKeyFile,
    caFile: pki.caFile,
    chave: "financeiro@atende.test",
    merchantName: "Atende",
    merchantCity: "Sao Paulo",
    registerWebhook: false,
    ...o,
  };
}

beforeAll(async () => {
  pki = makeTestPki();
  psp = await startFakePsp(pki);
});
afterAll(async () => {
  await psp.close();
  pki.cleanup();
});

describe("BCB Pix API driver against a fake PSP over mutual TLS", () => {
  it("creates an immediate charge with the platform's client certificate and an OAuth2 token", async () => {
    const driver = new BcbApiPixDriver(configFor());
    const created = await driver.createCharge({ txid: TXID, amount: 149.9, expiresInSeconds: 3600, description: "Fatura 1" });
    expect(created.status).toBe("ATIVA");
    expect(created.brcode).toContain("0014br.gov.bcb.pix25");
    expect(created.brcode).toContain(psp.cobs.get(TXID)!.location);
    expect(psp.cobs.get(TXID)).toMatchObject({ valor: { original: "149.90" }, chave: "financeiro@atende.test", calendario: { expiracao: 3600 } });
    expectEvery(psp.requests, (r) => r.clientCn === "atende-platform");
    expect(await driver.getCharge(TXID)).toEqual({ txid: TXID, status: "ATIVA", pix: [] });
    const paid = psp.pay(TXID);
    expect(await driver.getCharge(TXID)).toEqual({ txid: TXID, status: "CONCLUIDA", pix: [paid] });
    expect(await driver.getCharge("atendeTeste0000000000000000000404")).toBeNull();
    expect(psp.tokensIssued).toBe(1);
  });

  it("fetches a new token when the PSP answers 401, and registers the webhook", async () => {
    const driver = new BcbApiPixDriver(configFor());
    await driver.getCharge(TXID);
    const before = psp.tokensIssued;
    psp.revokeTokens();
    await driver.registerWebhook("https://atende.test/api/pix/webhook/abc");
    expect(psp.tokensIssued).toBe(before + 1);
    expect(psp.webhooks.get("financeiro@atende.test")).toBe("https://atende.test/api/pix/webhook/abc");
  });

  it("a client certificate the PSP does not trust, or wrong credentials, fail as PixUnavailable", async () => {
    const stranger = new BcbApiPixDriver(configFor({ certFile: pki.strangerCertFile, keyFile: pki.strangerKeyFile }));
    await expect(stranger.getCharge(TXID)).rejects.toBeInstanceOf(PixUnavailable);
    const wrongSecret = new BcbApiPixDriver(configFor({ clientSecret: "wrong" }));
    await expect(wrongSecret.getCharge(TXID)).rejects.toThrow(/token refused/);
  });

  it("refuses a charge the PSP rejects (duplicate txid)", async () => {
    const driver = new BcbApiPixDriver(configFor());
    await expect(driver.createCharge({ txid: TXID, amount: 1, expiresInSeconds: 60, description: "x" })).rejects.toThrow(/HTTP 409/);
  });
});

describe("Pix configuration", () => {
  it("defaults to the sandbox outside production and refuses unsafe production settings", () => {
    expect(loadPixConfig({}, false).provider).toBe("sandbox");
    expect(loadPixConfig({}, true).provider).toBe("none");
    expect(() => loadPixConfig({ PIX_PROVIDER: "sandbox" }, true)).toThrow(/production/);
    expect(() => loadPixConfig({ PIX_BASE_URL: "https://psp.test" }, true)).toThrow(/PIX_CLIENT_ID/);
    const files = { PIX_CLIENT_ID: "a", PIX_CLIENT_SECRET: "b", PIX_CERT: pki.clientCertFile, PIX_KEY: pki.clientKeyFile, PIX_KEY_CHAVE: "k" };
    expect(() => loadPixConfig({ ...files, PIX_BASE_URL: "http://psp.test" }, true)).toThrow(/https/);
    expect(() => loadPixConfig({ ...files, PIX_BASE_URL: "https://psp.test", PIX_CERT: "/nonexistent.pem" }, true)).toThrow(/not found/);
    expect(loadPixConfig({ ...files, PIX_BASE_URL: "https://psp.test/" }, true)).toMatchObject({ provider: "bcb", baseUrl: "https://psp.test", tokenUrl: "https://psp.test/oauth/token" });
  });
});
