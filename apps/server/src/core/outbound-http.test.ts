import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress, OutboundFailed, OutboundRefused, outboundRequest } from "./outbound-http.js";

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/slow") return void setTimeout(() => res.end("late"), 2000);
    if (req.url === "/big") return void res.end("x".repeat(2048));
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ method: req.method, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
});

describe("outbound HTTP never reaches the platform's own network unless allowed", () => {
  it("classifies addresses", () => {
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ["127.0.0.1", "10.0.0.5", "172.16.3.4", "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "224.0.0.1", "not-an-ip"]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it("refuses loopback by literal address and by name, and a non-http URL", async () => {
    await expect(outboundRequest(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(outboundRequest(`http://[::1]:${port}/`)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(outboundRequest(`http://localhost:${port}/`)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(outboundRequest("file:///etc/passwd")).rejects.toBeInstanceOf(TypeError);
  });

  it("reaches an allowed host, with a body, and enforces the timeout and the answer's size", async () => {
    const allowedHosts = [`127.0.0.1:${port}`];
    const res = await outboundRequest(`http://127.0.0.1:${port}/echo`, { method: "POST", body: "olá", headers: { "content-type": "text/plain" }, allowedHosts });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ method: "POST", body: "olá" });
    await expect(outboundRequest(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200, allowedHosts })).rejects.toMatchObject({ timeout: true });
    await expect(outboundRequest(`http://127.0.0.1:${port}/big`, { maxBytes: 1024, allowedHosts })).rejects.toBeInstanceOf(OutboundFailed);
    // another port of the same host is not allowed by a host:port entry
    await expect(outboundRequest(`http://127.0.0.1:${port + 1}/`, { allowedHosts })).rejects.toBeInstanceOf(OutboundRefused);
  });
});
