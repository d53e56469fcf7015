import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helper.js";

let app: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), "atende-web-"));
  await writeFile(path.join(webDist, "index.html"), "<!doctype html><div id=root></div>");
  app = await createTestApp({ webDist, publicUrl: "http://atende.lan:8080/app" });
});
afterAll(async () => {
  await app.close();
  await rm(webDist, { recursive: true, force: true });
});

describe("security headers", () => {
  it("the app shell and the API carry CSP with frame-ancestors, nosniff and a referrer policy", async () => {
    for (const url of ["/", "/tickets", "/api/health"]) {
      const res = await app.app.inject({ method: "GET", url });
      const csp = res.headers["content-security-policy"] as string;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(res.headers["x-frame-options"]).toBe("DENY");
    }
  });
});

describe("images from the public address", () => {
  it("img-src names PUBLIC_URL's origin: the sandbox mailbox's open pixel loads on a page opened on another host", async () => {
    const res = await app.app.inject({ method: "GET", url: "/email-sandbox", headers: { host: "127.0.0.1:8080" } });
    const csp = res.headers["content-security-policy"] as string;
    expect(csp).toContain("img-src 'self' data: blob: https: http://atende.lan:8080;");
  });
});

describe("unknown API paths", () => {
  it("answer 404 with the JSON error shape, not the web app's page", async () => {
    const res = await app.app.inject({ method: "GET", url: "/api/does-not-exist?x=1" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ error: "ERR_NOT_FOUND" });
    expect((await app.app.inject({ method: "GET", url: "/api" })).statusCode).toBe(404);
  });

  it("the web app's routes still answer with its page", async () => {
    const res = await app.app.inject({ method: "GET", url: "/tickets/12" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id=root>');
  });
});
