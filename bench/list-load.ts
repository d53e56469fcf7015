/**
 * Load generator for the ticket list, run as its own process by bench/tickets.ts (so its work is not
 * the server's): LIST_CONCURRENCY clients (50) each ask for the list again as soon as the previous
 * answer arrived, for LIST_SECONDS (10) after a 2 s warm-up, with the same URL and token the web app
 * sends. Every answer must be 200 with a full page. Prints one JSON line: requests, per second, p50,
 * p95, p99, errors.
 */
import http from "node:http";

const base = process.env.LIST_BASE!;
const token = process.env.LIST_TOKEN!;
const url = process.env.LIST_URL!;
const concurrency = Number(process.env.LIST_CONCURRENCY ?? 50);
const seconds = Number(process.env.LIST_SECONDS ?? 10);
const pageSize = Number(process.env.LIST_PAGE_SIZE ?? 40);

// the clients' connections: kept alive and reused like a browser's, through Node's own HTTP client
// (cheaper per request than fetch, so the client process takes less of the cores the server shares)
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function get(): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${url}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

const cpuMs = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;

let allRequests = 0;

async function client(until: number, measureFrom: number, times: number[], errors: string[]): Promise<void> {
  while (Date.now() < until) {
    allRequests++;
    const start = performance.now();
    const res = await get();
    const body = JSON.parse(res.body) as { tickets?: unknown[] };
    const ms = performance.now() - start;
    if (res.status !== 200 || (body.tickets?.length ?? 0) < pageSize) errors.push(`HTTP ${res.status}, ${body.tickets?.length ?? 0} tickets`);
    else if (Date.now() >= measureFrom) times.push(ms);
  }
}

async function main() {
  const measureFrom = Date.now() + 2000;
  const until = measureFrom + seconds * 1000;
  const times: number[] = [];
  const errors: string[] = [];
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, () => client(until, measureFrom, times, errors)));
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify({ allRequests, clientCpuMs: cpuMs(process.cpuUsage(cpu)), requests: times.length, perSecond: round(times.length / seconds), p50: round(pct(times, 50)), p95: round(pct(times, 95)), p99: round(pct(times, 99)), errors: errors.length, firstError: errors[0] }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
