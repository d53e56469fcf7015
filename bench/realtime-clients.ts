/**
 * The agents' side of bench/realtime.ts, in a process of its own: one socket.io connection per
 * access token (WebSocket, as browsers use it). Prints "ready" once every socket is connected; reads
 * from stdin "update <ticketId>" (a ticket update is coming; answered "marked <ticketId>"), "start
 * <ticketId> <sentAt>" (the moment its request starts, written just before it) and "report" (print the
 * figures, then "done"). Receipts are timed against the start afterwards, so the handshake never counts.
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { io, type Socket } from "socket.io-client";

// `bases`: the web processes (several with BENCH_WEB_PROCESSES); socket i goes to bases[i % n], as a
// load balancer spreading new connections would
const { base, bases: many, companyId, tokens } = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as {
  base: string;
  bases?: string[];
  companyId: number;
  tokens: string[];
};
const bases = many?.length ? many : [base];
const messageLatencies: number[] = [];
const updateReceipts: { id: number; at: number }[] = [];
const updatesExpected = new Set<number>();
const updateSentAt = new Map<number, number>();
/** Per socket, the tickets whose update it has received (only the first receipt counts). */
const updatesSeen: Set<number>[] = tokens.map(() => new Set());
let messagesExpected = 0;
const messagesSeen = new Map<string, number>();

const sockets: Socket[] = [];
let connected = 0;
tokens.forEach((token, i) => {
  const s = io(bases[i % bases.length]!, { auth: { token }, transports: ["websocket"], reconnection: false });
  s.on("connect", () => {
    if (++connected === tokens.length) console.log("ready");
  });
  s.on("connect_error", (err) => console.error(`socket ${i}: ${err.message}`));
  s.on(`company-${companyId}-appMessage`, (p: { action: string; message: { body: string; id: number } }) => {
    const m = /^bench (\d+)$/.exec(p.message.body);
    if (p.action !== "create" || !m) return;
    messageLatencies.push(Date.now() - Number(m[1]));
    messagesSeen.set(`${i}:${p.message.id}`, 1);
  });
  s.on(`company-${companyId}-ticket`, (p: { action: string; ticket?: { id: number; status: string } }) => {
    const id = p.ticket?.id;
    if (p.action !== "update" || id === undefined || p.ticket?.status !== "open") return;
    if (!updatesExpected.has(id) || updatesSeen[i]!.has(id)) return;
    updatesSeen[i]!.add(id);
    updateReceipts.push({ id, at: Date.now() });
  });
  sockets.push(s);
});

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const line = (name: string, xs: number[], expected: number) =>
  console.log(
    `${name.padEnd(34)} p50 ${pct(xs, 50)} ms, p95 ${pct(xs, 95)} ms, p99 ${pct(xs, 99)} ms, max ${pct(xs, 100)} ms; received ${xs.length} of ${expected} (lost ${expected - xs.length})`,
  );

createInterface({ input: process.stdin }).on("line", (l) => {
  const [cmd, a, b] = l.split(" ");
  if (cmd === "update") {
    updatesExpected.add(Number(a));
    messagesExpected += tokens.length;
    console.log(`marked ${a}`);
  } else if (cmd === "start") {
    updateSentAt.set(Number(a), Number(b));
  } else if (cmd === "report") {
    const updateLatencies = updateReceipts.map((r) => r.at - (updateSentAt.get(r.id) ?? NaN)).filter((ms) => !Number.isNaN(ms));
    line("customer message → every agent", messageLatencies, messagesExpected);
    line("ticket update → every agent", updateLatencies, updatesExpected.size * tokens.length);
    console.log(`distinct (socket, message) receipts: ${messagesSeen.size}`);
    console.log("done");
    for (const s of sockets) s.close();
  }
});
