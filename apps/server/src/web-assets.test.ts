import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/helper.js";

/** The built web app as the server hands it out: precompressed copies, long caching of hashed files only. */
let app: TestApp;
let webDist: string;
const script = `console.log(${JSON.stringify("olá ".repeat(500))});`;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), "atende-web-assets-"));
  await mkdir(path.join(webDist, "assets"));
  await writeFile(path.join(webDist, "index.html"), '<!doctype html><script type="module" src="/assets/index-AbC123.js"></script>');
  await writeFile(path.join(webDist, "assets", "index-AbC123.js"), script);
  await writeFile(path.join(webDist, "assets", "index-AbC123.js.br"), brotliCompressSync(script));
  await writeFile(path.join(webDist, "assets", "index-AbC123.js.gz"), gzipSync(script));
  app = await createTestApp({ webDist });
});
afterAll(async () => {
  await app.close();
  await rm(webDist, { recursive: true, force: true });
});

describe("web assets", () => {
  it("a browser accepting brotli gets the brotli copy of a hashed asset, cached for a year as immutable", async () => {
    const res = await app.app.inject({ method: "GET", url: "/assets/index-AbC123.js", headers: { "accept-encoding": "br, gzip" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it("gzip for a browser without brotli, the plain file for one without either", async () => {
    const gz = await app.app.inject({ method: "GET", url: "/assets/index-AbC123.js", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const plain = await app.app.inject({ method: "GET", url: "/assets/index-AbC123.js", headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("the page itself is revalidated on every load, so a new build is picked up at once", async () => {
    for (const url of ["/", "/tickets/5"]) {
      const res = await app.app.inject({ method: "GET", url, headers: { "accept-encoding": "br, gzip" } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toContain("/assets/index-AbC123.js");
    }
  });
});
