/**
 * The outside world of bench/webhooks.ts, in its own process (Meta's servers and the agent's browser
 * are other machines: their work must not run on the server's event loop): posts the signed
 * deliveries, receives the agent's `appMessage` events over socket.io, counts the stored rows with
 * its own connection, and prints each phase's figures with the machine's load average beside them.
 *
 * Each of `runs` runs back to back: `contacts` customers write `messages` messages between them, in
 * random order, with texts of random words. From the second run on, a `returning` share of the
 * customers wrote in an earlier run and their tickets were closed meanwhile (an agent's day), so their
 * first message opens a new ticket on a contact with history, and the tables carry what the earlier
 * runs updated: a path whose per-message work grows with history, or a table that bloats, shows as a
 * later run slower than the first.
 */
import { readFileSync } from "node:fs";
import { createHmac, randomBytes, randomInt } from "node:crypto";
import { io } from "socket.io-client";
import { request } from "undici";
import { createPool, Sql } from "../apps/server/src/db/sql.js";

export interface LoadSettings {
  base: string;
  token: string;
  databaseUrl: string;
  companyId: number;
  whatsappId: number;
  businessId: number;
  appSecret: string;
  wabaId: string;
  phoneNumberId: string;
  phoneDigits: string;
  messages: number;
  batch: number;
  concurrency: number;
  contacts: number;
  seconds: number;
  rate: number;
  runs: number;
  returning: number;
  timeline: boolean;
}

const s = JSON.parse(process.env.BENCH_LOAD ?? "{}") as LoadSettings;
const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);
const r = (n: number) => n.toFixed(1);
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const WORDS = ["oi", "bom", "dia", "pedido", "entrega", "boleto", "pix", "troca", "produto", "obrigado", "quando", "chega", "valor", "nota", "fiscal", "endereço", "cancelar", "ajuda", "atendente", "prazo"];
const text = () => Array.from({ length: 2 + randomInt(12) }, () => WORDS[randomInt(WORDS.length)]).join(" ");
const customer = (i: number) => `55319${String(10000000 + i).padStart(8, "0")}`;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

/**
 * One run's Meta-shaped deliveries of `batch` text messages each: the run's customers (new ones, and
 * from the second run on a `returning` share of earlier ones) each send a first message (phase 1, the
 * deliveries of `opening`), then the rest of the messages come from them at random.
 */
function buildDeliveries(earlier: number): { deliveries: { raw: string; bodies: string[] }[]; opening: number; known: number } {
  const people: string[] = [];
  const chosen = new Set<number>();
  while (chosen.size < Math.min(Math.round(s.contacts * s.returning), earlier)) chosen.add(randomInt(earlier));
  for (const i of chosen) people.push(customer(i));
  let known = earlier;
  while (people.length < s.contacts) people.push(customer(known++));
  const senders = [...people, ...Array.from({ length: Math.max(0, s.messages - people.length) }, () => people[randomInt(people.length)]!)];
  const deliveries: { raw: string; bodies: string[] }[] = [];
  for (let i = 0; i < senders.length; i += s.batch) {
    const bodies: string[] = [];
    const messages = [];
    const names = new Map<string, string>();
    for (const from of senders.slice(i, i + s.batch)) {
      const body = `${text()} ${randomBytes(4).toString("hex")}`;
      bodies.push(body);
      names.set(from, `Cliente ${from.slice(-6)}`);
      messages.push({ from, id: `wamid.${randomBytes(18).toString("base64url")}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body } });
    }
    const value = {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: s.phoneDigits, phone_number_id: s.phoneNumberId },
      contacts: [...names].map(([wa_id, name]) => ({ profile: { name }, wa_id })),
      messages,
    };
    const payload = { object: "whatsapp_business_account", entry: [{ id: s.wabaId, changes: [{ field: "messages", value }] }] };
    deliveries.push({ raw: JSON.stringify(payload), bodies });
  }
  return { deliveries, opening: Math.ceil(Math.min(people.length, s.messages) / s.batch), known };
}

async function main(): Promise<void> {
  const pool = createPool(s.databaseUrl, 2);
  const sql = new Sql(pool);
  const arrivals = new Map<string, number>();
  const socket = io(s.base, { auth: { token: s.token }, transports: ["websocket"] });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.on("connect", () => resolve());
      socket.on("connect_error", reject);
    });
    socket.on(`company-${s.companyId}-appMessage`, (p: { action: string; message: { body: string } }) => {
      if (p.action === "create" && !arrivals.has(p.message.body)) arrivals.set(p.message.body, performance.now());
    });

    const sentAt = new Map<string, number>();
    const webhookUrl = `${s.base}/api/webhooks/whatsapp/${s.businessId}`;
    const sign = (raw: string) => `sha256=${createHmac("sha256", s.appSecret).update(raw).digest("hex")}`;
    let deadline = Date.now() + s.seconds * 1000;
    let storedBefore = 0;

    /** Posts deliveries (`concurrency` in flight, paced at `rate`), waits until all are stored and seen by the agent, prints the figures. */
    const phase = async (name: string, list: { raw: string; bodies: string[] }[]) => {
      const postTimes: number[] = [];
      let next = 0;
      let accepted = 0;
      let refused = 0;
      const bodies = new Set(list.flatMap((d) => d.bodies));
      log(`${name}: posting ${bodies.size} messages in ${list.length} deliveries of ${s.batch}, ${s.concurrency} at a time${s.rate ? `, ${s.rate}/s offered` : ""}`);
      const t0 = performance.now();
      const worker = async () => {
        while (next < list.length && Date.now() < deadline) {
          const i = next++;
          const d = list[i]!;
          if (s.rate > 0) {
            const wait = t0 + ((i * s.batch) / s.rate) * 1000 - performance.now();
            if (wait > 0) await new Promise((res) => setTimeout(res, wait));
          }
          const start = performance.now();
          for (const b of d.bodies) sentAt.set(b, start);
          // undici's request, as Meta's servers would spend their own CPU: fetch costs this process four
          // times as much per POST, taken from the server on a two-core machine
          const res = await request(webhookUrl, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": sign(d.raw) }, body: d.raw });
          await res.body.dump();
          postTimes.push(performance.now() - start);
          if (res.statusCode === 200) accepted += d.bodies.length;
          else refused += d.bodies.length;
        }
      };
      await Promise.all(Array.from({ length: s.concurrency }, worker));
      const postedMs = performance.now() - t0;
      const waitUntil = Date.now() + 300_000;
      let stored = 0;
      let storedMs = 0;
      let seen = 0;
      while (Date.now() < waitUntil) {
        stored = (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE whatsapp_id = $1", [s.whatsappId])).n - storedBefore;
        storedMs = performance.now() - t0;
        seen = [...bodies].filter((b) => arrivals.has(b)).length;
        if (stored >= accepted && seen >= accepted) break;
        await new Promise((res) => setTimeout(res, 50));
      }
      storedBefore += stored;
      const mine = [...bodies].filter((b) => arrivals.has(b)).map((b) => ({ at: arrivals.get(b)!, sent: sentAt.get(b)! }));
      const lastArrival = Math.max(...mine.map((m) => m.at));
      const latencies = mine.map((m) => m.at - m.sent).sort((a, b) => a - b);
      postTimes.sort((a, b) => a - b);
      console.log(`\n${name} (load average ${loadAverage()})`);
      console.log(`  messages accepted         ${accepted} (${refused} refused) in ${list.length} deliveries of ${s.batch}`);
      console.log(`  accepted/s                ${r(accepted / (postedMs / 1000))}  (POST p50 ${r(percentile(postTimes, 50))} ms, p95 ${r(percentile(postTimes, 95))} ms)`);
      console.log(`  persisted/s               ${r(stored / (storedMs / 1000))}  (${stored} rows in ${r(storedMs / 1000)} s)`);
      console.log(`  delivered to agent/s      ${r(seen / ((lastArrival - t0) / 1000))}  (${seen} appMessage events)`);
      console.log(
        `  POST → appMessage (ms)    p50 ${r(percentile(latencies, 50))}  p95 ${r(percentile(latencies, 95))}  p99 ${r(percentile(latencies, 99))}  max ${r(latencies.at(-1) ?? NaN)}`,
      );
      if (s.timeline) {
        // per second of sending
        const buckets = new Map<number, number[]>();
        for (const m of mine) {
          const k = Math.floor((m.sent - t0) / 1000);
          buckets.set(k, [...(buckets.get(k) ?? []), m.at - m.sent]);
        }
        for (const [k, v] of [...buckets].sort((a, b) => a[0] - b[0])) {
          v.sort((a, b) => a - b);
          console.log(`    t=${k}s n=${v.length} p50 ${r(percentile(v, 50))} p95 ${r(percentile(v, 95))} max ${r(v.at(-1)!)}`);
        }
      }
    };

    // Phase 1: every customer's first message of the run (a new ticket each; a new contact too for a
    // new customer). Phase 2: the rest, on those tickets — the sustained load of a busy number. After
    // the first run's phase 1, ANALYZE gives the planner the statistics a running database has
    // (autovacuum gathers them within a minute of such growth; this database was created seconds ago).
    let known = 0;
    for (let run = 0; run < s.runs; run++) {
      const built = buildDeliveries(known);
      const { deliveries, opening } = built;
      known = built.known;
      deadline = Date.now() + s.seconds * 1000;
      const label = `Run ${run + 1} of ${s.runs}`;
      await phase(`${label}, phase 1: ${Math.min(s.contacts, s.messages)} first messages (new tickets)`, deliveries.slice(0, opening));
      if (run === 0) await sql.exec("ANALYZE");
      if (deliveries.length > opening) await phase(`${label}, phase 2: ${s.messages - s.contacts} messages on open tickets`, deliveries.slice(opening));
      // the agents close the day's tickets: the customers who come back open new ones
      if (run + 1 < s.runs) await sql.exec("UPDATE tickets SET status = 'closed', updated_at = now() WHERE company_id = $1 AND status <> 'closed'", [s.companyId]);
    }
  } finally {
    socket.close();
    await pool.end();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
