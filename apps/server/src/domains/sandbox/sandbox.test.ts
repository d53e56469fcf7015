import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox } from "../../channels/testing.js";
import { TEST_SECRETS_KEYS } from "../../../test/factories.js";

let app: TestApp;
let production: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let wa: number;

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  wa = await connectedSandbox(app, t.admin.token);
  // production without ENABLE_SANDBOX, as loadConfig decides it
  production = await createTestApp({ enableSandbox: false });
});
afterAll(async () => {
  await app.close();
  await production.close();
});

describe("sandbox phone routes", () => {
  it("answer 403 ERR_NO_PERMISSION to users and supervisors, and work for admins", async () => {
    const calls: [string, string, unknown?][] = [
      ["POST", `/api/sandbox/${wa}/scan`],
      ["POST", `/api/sandbox/${wa}/inbound`, { number: "5511988887777", body: "oi" }],
      ["GET", `/api/sandbox/${wa}/outbox`],
      ["POST", `/api/sandbox/${wa}/read`, {}],
    ];
    for (const [method, url, body] of calls) {
      for (const token of [t.user.token, t.supervisor.token]) {
        const res = await app.api(method, url, { token, body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toBe("ERR_NO_PERMISSION");
      }
      expect((await app.api(method, url, { token: t.admin.token, body })).statusCode, `${method} ${url}`).toBe(200);
    }
  });
});

describe("sandbox connections in production", () => {
  it("loadConfig enables them outside production, and in production only with ENABLE_SANDBOX=true", async () => {
    const { loadConfig } = await import("../../config.js");
    const prod = { NODE_ENV: "production", SECRETS_KEYS: TEST_SECRETS_KEYS, JWT_SECRET: "x".repeat(40), ADMIN_PASSWORD: "a-real-password" };
    expect(loadConfig({ NODE_ENV: "development" }).enableSandbox).toBe(true);
    expect(loadConfig(prod).enableSandbox).toBe(false);
    expect(loadConfig({ ...prod, ENABLE_SANDBOX: "true" }).enableSandbox).toBe(true);
  });

  it("are refused with ERR_SANDBOX_DISABLED and left out of the type choice when disabled", async () => {
    const p = await buildTenant(production);
    const res = await production.api("POST", "/api/whatsapp", { token: p.admin.token, body: { name: "Teste", provider: "sandbox" } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_SANDBOX_DISABLED");
    const scan = await production.api("POST", "/api/sandbox/1/scan", { token: p.admin.token });
    expect(scan.json().error).toBe("ERR_SANDBOX_DISABLED");
    expect((await production.api("GET", "/api/whatsapp/providers", { token: p.admin.token })).json()).toEqual({ providers: ["baileys"] });
    expect((await app.api("GET", "/api/whatsapp/providers", { token: t.admin.token })).json()).toEqual({ providers: ["baileys", "sandbox"] });
  });
});
