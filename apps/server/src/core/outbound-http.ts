import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * HTTP calls to addresses a company typed (queue integrations, AI providers, webhooks): never into the
 * platform's own network. The address each connection actually uses is checked when the socket
 * connects (a `lookup` hook, so a name that resolves to a public address first and a private one later
 * — DNS rebinding — is refused too): loopback, private, link-local, unique-local, carrier-grade NAT,
 * multicast, unspecified and reserved ranges are refused unless `OUTBOUND_ALLOWED_HOSTS` names the
 * host (`host` or `host:port`, comma-separated; e.g. a self-hosted model server on the LAN). Every call
 * has a timeout and a size limit on the answer.
 */

export class OutboundRefused extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, an address of a private network (set OUTBOUND_ALLOWED_HOSTS to allow it)`);
  }
}

/** The request failed (network, timeout, answer too large); `timeout` tells a timeout apart. */
export class OutboundFailed extends Error {
  constructor(
    message: string,
    readonly timeout = false,
  ) {
    super(message);
  }
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole request, connect to last byte (default 15 s). */
  timeoutMs?: number;
  /** Largest answer accepted (default 5 MB). */
  maxBytes?: number;
  /** Hosts allowed even on private addresses, beyond OUTBOUND_ALLOWED_HOSTS (tests). */
  allowedHosts?: readonly string[];
}

const PUBLIC_RANGES = new Set(["unicast"]);

/** Whether an IP address is on the public internet (IPv4-mapped IPv6 judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return PUBLIC_RANGES.has(ip.range());
}

export function allowedHostsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.OUTBOUND_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

function hostAllowed(url: URL, allowed: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowed.includes(host) || allowed.includes(`${host}:${port}`);
}

/** A DNS lookup that refuses non-public addresses (also for literal IPs, which Node passes through it too). */
function guardedLookup(host: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => !isPublicAddress(a.address));
      if (bad || !list.length) return callback(new OutboundRefused(host, bad?.address ?? "nothing"), "", 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * One HTTP(S) request under the rules above. Resolves with the answer (any status); rejects with
 * OutboundRefused (a private address), OutboundFailed (network, timeout, too large) or a TypeError
 * for a URL that is not http(s).
 */
export function outboundRequest(target: string | URL, req: OutboundRequest = {}): Promise<OutboundResponse> {
  const url = typeof target === "string" ? new URL(target) : target;
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(new TypeError(`not an http(s) URL: ${url.protocol}`));
  const allowed = [...allowedHostsFromEnv(), ...(req.allowedHosts ?? [])].map((h) => h.toLowerCase());
  const timeoutMs = req.timeoutMs ?? 15_000;
  const maxBytes = req.maxBytes ?? 5 * 1024 * 1024;
  const client = url.protocol === "https:" ? https : http;
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  // an IP written in the URL never goes through a lookup: checked here
  if (ipaddr.isValid(literal) && !isPublicAddress(literal) && !hostAllowed(url, allowed)) return Promise.reject(new OutboundRefused(url.hostname, literal));
  return new Promise<OutboundResponse>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: req.method ?? "GET",
        headers: { ...(req.body !== undefined ? { "content-length": String(Buffer.byteLength(req.body)) } : {}), ...req.headers },
        ...(hostAllowed(url, allowed) ? {} : { lookup: guardedLookup(url.hostname) }),
        // a fresh connection each time: a pooled socket would skip the address check
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const tooLarge = () => new OutboundFailed(`answer larger than ${maxBytes} bytes`);
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) {
            request.destroy(tooLarge());
            return;
          }
          chunks.push(c);
        });
        res.on("end", () => {
          if (size > maxBytes) return reject(tooLarge());
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: () => body.toString("utf8"),
            json: <T>() => JSON.parse(body.toString("utf8")) as T,
          });
        });
        res.on("error", (err) => reject(err instanceof OutboundFailed ? err : new OutboundFailed(err.message)));
      },
    );
    const timer = setTimeout(() => request.destroy(new OutboundFailed(`no answer in ${timeoutMs} ms`, true)), timeoutMs);
    request.on("close", () => clearTimeout(timer));
    request.on("error", (err) => {
      clearTimeout(timer);
      reject(err instanceof OutboundRefused || err instanceof OutboundFailed ? err : new OutboundFailed(err.message));
    });
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}
