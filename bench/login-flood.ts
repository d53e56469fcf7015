/**
 * Login flood benchmark: while many bogus logins arrive at once, how long does a
 * real user's login take?
 *
 *   nice npx tsx bench/login-flood.ts                                 # throw-away embedded PostgreSQL
 *   BENCH_DATABASE_URL=postgres://... nice npx tsx bench/login-flood.ts   # an empty database you own
 *
 * Knobs (environment): BENCH_BOGUS (bogus logins fired at once, 200), BENCH_ADDRESSES (distinct client
 * addresses they come from, via X-Forwarded-For, 50), BENCH_REAL (real logins timed during the flood, 5).
 *
 * Knob BENCH_ROUNDS (4): floods back to back on the same server, a minute apart (the login limits'
 * window), each with fresh addresses.
 *
 * Measured as an outside client would: the server is a process of its own (the bundle `npm start`
 * runs, production settings and request limits, TRUST_PROXY on as behind a reverse proxy;
 * bench/server-process.ts) on a fresh database with the platform company and one real user. Each
 * round times one real login on a quiet server, then fires the bogus
 * logins (unknown e-mails, so each costs a full scrypt like a wrong password) and real logins
 * starting 50 ms later and every 200 ms after (each on its own schedule), each from an address of
 * its own. It prints the real logins' times and
 * what the flood got back (401 = hashed and refused, 429 = stopped early).
 */
import { rm } from "node:fs/promises";
import os from "node:os";
import { ensureDatabase, startEmbeddedPostgres, tmpDataDir, type EmbeddedDatabase } from "../apps/server/src/db/embedded.js";
import { startServerProcess, type ServerProcess } from "./server-process.js";

const BOGUS = Number(process.env.BENCH_BOGUS ?? 200);
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 50);
const REAL = Number(process.env.BENCH_REAL ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const ADMIN = { email: "admin@flood.test", password: "flood-admin-password" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  let embedded: EmbeddedDatabase | undefined;
  let url = process.env.BENCH_DATABASE_URL;
  const pgDir = tmpDataDir("bench-login-flood");
  if (!url) {
    embedded = await startEmbeddedPostgres(pgDir, { persistent: false });
    await ensureDatabase(embedded.serverUrl("postgres"), "bench");
    url = embedded.serverUrl("bench");
  }
  const dataDir = tmpDataDir("bench-login-flood-data");
  let server: ServerProcess | undefined;
  try {
    // production request limits (the server's defaults), not the other benches' BENCH_NO_REQUEST_LIMITS
    const limits = { RATE_LIMIT_COMPANY_PER_MINUTE: "", RATE_LIMIT_TOKEN_PER_MINUTE: "", RATE_LIMIT_EXTERNAL_COMPANY_PER_MINUTE: "", RATE_LIMIT_EXTERNAL_TOKEN_PER_MINUTE: "" };
    server = await startServerProcess({ databaseUrl: url, dataDir, env: { ...limits, TRUST_PROXY: "true", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const base = server.base;

    const login = async (email: string, password: string, address: string) => {
      const start = performance.now();
      const res = await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": address },
        body: JSON.stringify({ email, password }),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - start };
    };

    for (let round = 0; round < ROUNDS; round++) {
      const quiet = await login(ADMIN.email, ADMIN.password, "203.0.113.1");
      if (quiet.status !== 200) throw new Error(`real login failed on a quiet server: ${quiet.status}`);

      const floodStart = performance.now();
      const flood = Array.from({ length: BOGUS }, (_, i) =>
        login(`nobody${i}@flood.test`, "wrong-password", `198.${51 + round}.${Math.floor((i % ADDRESSES) / 250)}.${(i % ADDRESSES) % 250}`),
      );
      // Each real login starts on its own schedule (50 ms, 250 ms, ...), not after the previous one ends.
      const real = await Promise.all(
        Array.from({ length: REAL }, async (_, i) => {
          await sleep(50 + i * 200);
          return login(ADMIN.email, ADMIN.password, `203.${round}.113.${10 + i}`);
        }),
      );
      const results = await Promise.all(flood);
      const floodMs = performance.now() - floodStart;

      const byStatus = new Map<number, number>();
      for (const r of results) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
      const bogusMs = results.map((r) => r.ms).sort((a, b) => a - b);
      const realMs = real.map((r) => r.ms);
      const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
      console.log(`\nround ${round + 1} of ${ROUNDS}; machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
      console.log(`real login, quiet server: ${fmt(quiet.ms)}`);
      console.log(`flood: ${BOGUS} bogus logins from ${ADDRESSES} addresses, all answered in ${fmt(floodMs)}`);
      console.log(`  answers: ${[...byStatus].map(([s, n]) => `${n}×${s}`).join(", ")}`);
      console.log(`  bogus latency p50 ${fmt(pct(bogusMs, 50))}, p95 ${fmt(pct(bogusMs, 95))}, max ${fmt(bogusMs.at(-1) ?? NaN)}`);
      console.log(`real logins during the flood: ${real.map((r) => `${r.status} in ${fmt(r.ms)}`).join(", ")}`);
      console.log(`  max ${fmt(Math.max(...realMs))}`);
      if (real.some((r) => r.status !== 200)) process.exitCode = 1;
      if (round + 1 < ROUNDS) await sleep(61_000);
    }
  } finally {
    const warn = (what: string) => (err: unknown) => console.warn(`bench teardown: ${what} failed`, err);
    await server?.stop().catch(warn("stopping the server"));
    await embedded?.stop().catch(warn("stopping the embedded database"));
    await rm(pgDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
