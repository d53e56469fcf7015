/**
 * Load generator for the ticket list, run as its own process by bench/tickets.ts (so its work is not
 * the server's): LIST_CONCURRENCY clients (50) each ask for the list again as soon as the previous
 * answer arrived, for LIST_SECONDS (10) after a 2 s warm-up, with the same URL and token the web app
 * sends. Every answer must be 200 with a full page. Prints one JSON line: requests, per second, p50,
 * p95, p99, errors.
 */
const base = process.env.LIST_BASE!;
const token = process.env.LIST_TOKEN!;
const url = process.env.LIST_URL!;
const concurrency = Number(process.env.LIST_CONCURRENCY ?? 50);
const seconds = Number(process.env.LIST_SECONDS ?? 10);
const pageSize = Number(process.env.LIST_PAGE_SIZE ?? 40);

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;

async function client(until: number, measureFrom: number, times: number[], errors: string[]): Promise<void> {
  while (Date.now() < until) {
    const start = performance.now();
    const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { tickets?: unknown[] };
    const ms = performance.now() - start;
    if (!res.ok || (body.tickets?.length ?? 0) < pageSize) errors.push(`HTTP ${res.status}, ${body.tickets?.length ?? 0} tickets`);
    else if (Date.now() >= measureFrom) times.push(ms);
  }
}

async function main() {
  const measureFrom = Date.now() + 2000;
  const until = measureFrom + seconds * 1000;
  const times: number[] = [];
  const errors: string[] = [];
  await Promise.all(Array.from({ length: concurrency }, () => client(until, measureFrom, times, errors)));
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify({ requests: times.length, perSecond: round(times.length / seconds), p50: round(pct(times, 50)), p95: round(pct(times, 95)), p99: round(pct(times, 99)), errors: errors.length, firstError: errors[0] }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
