/**
 * The CPU an outgoing HTTP request costs (client and a local server together), per client: Node's
 * fetch, node:http with a keep-alive agent, and undici's request. Why the provider clients (Twilio,
 * the Graph API) and the load generators use undici's `request` (docs/performance.md).
 *
 *   npx tsx bench/http-client.ts          # BENCH_REQUESTS (5000), 50 in flight, each client three times
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";

const N = Number(process.env.BENCH_REQUESTS ?? 5000);
const IN_FLIGHT = 50;
// a Twilio-shaped form POST and answer
const body = "To=%2B5511999999999&Body=Ola+Cliente+1%2C+sua+fatura&StatusCallback=http%3A%2F%2F127.0.0.1%3A1%2Fapi%2Fwebhooks%2Fsms%2Ftwilio%2Fstatus%3Frow%3D123&From=%2B15005550006";
const headers = { authorization: "Basic YWJjOmRlZg==", "content-type": "application/x-www-form-urlencoded", accept: "application/json" };

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(201, { "content-type": "application/json" });
    res.end('{"sid":"SM123","status":"queued"}');
  });
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/Messages.json`;

const viaFetch = async () => {
  const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(15_000) });
  return JSON.parse(await res.text()) as unknown;
};
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const viaHttp = () =>
  new Promise<unknown>((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) }, timeout: 15_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve(JSON.parse(text)));
    });
    req.on("error", reject);
    req.end(body);
  });
const dispatcher = new Agent({ connections: IN_FLIGHT });
const viaUndici = async () => {
  const res = await request(url, { method: "POST", dispatcher, headers, body, signal: AbortSignal.timeout(15_000) });
  return JSON.parse(await res.body.text()) as unknown;
};

const clients: [string, () => Promise<unknown>][] = [
  ["fetch", viaFetch],
  ["node:http", viaHttp],
  ["undici request", viaUndici],
];
for (const round of [1, 2, 3]) {
  for (const [name, call] of clients) {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i += IN_FLIGHT) await Promise.all(Array.from({ length: IN_FLIGHT }, call));
    const used = process.cpuUsage(cpu);
    console.log(`round ${round} ${name.padEnd(15)} ${((used.user + used.system) / N).toFixed(0).padStart(4)} µs CPU per request, ${(performance.now() - t0).toFixed(0)} ms for ${N}`);
  }
}
server.close();
agent.destroy();
await dispatcher.close();
