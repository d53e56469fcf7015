import Fastify, { type FastifyBaseLogger } from "fastify";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loggerOptions } from "./log-redaction.js";
import { registerRunContext, runWithContext } from "./run-context.js";
import { expectEvery } from "../../test/expect-every.js";

/** Every line logged during a request carries its id, whichever logger wrote it, and only once. */
const lines: string[] = [];
const log = pino({ ...loggerOptions("info") }, { write: (line: string) => void lines.push(line) });
const app = Fastify({ loggerInstance: log as FastifyBaseLogger });
registerRunContext(app);
app.post("/work", async (request) => {
  request.log.info("request logger");
  await new Promise((resolve) => setTimeout(resolve, 5));
  // a service logging through the server's logger (ctx.log), after an await, with a body read from the socket
  app.log.info("server logger");
  return { ok: true };
});

let base: string;
beforeAll(async () => {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
});
/** Over a real socket: the body arrives in socket events, outside the context entered at onRequest. */
const post = (body: unknown) => fetch(`${base}/work`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
afterAll(async () => {
  await app.close();
});

const parsed = () => lines.map((l) => JSON.parse(l) as { msg: string; reqId?: string; job?: string });

describe("request ids in log lines", () => {
  it("the server's logger adds the request's id; the request's own logger has it once", async () => {
    lines.length = 0;
    const res = await post({ a: "x".repeat(100_000) });
    expect(res.status).toBe(200);
    const byMsg = new Map(parsed().map((l) => [l.msg, l]));
    const reqId = byMsg.get("incoming request")?.reqId;
    expect(reqId).toMatch(/^req-/);
    expect(byMsg.get("request logger")?.reqId).toBe(reqId);
    expect(byMsg.get("server logger")?.reqId).toBe(reqId);
    expectEvery(lines, (l) => (l.match(/"reqId"/g) ?? []).length === 1);
  });

  it("two requests at once keep their own ids", async () => {
    lines.length = 0;
    await Promise.all([post({ a: 1 }), post({ a: 2 })]);
    const server = parsed().filter((l) => l.msg === "server logger");
    expect(new Set(server.map((l) => l.reqId)).size).toBe(2);
  });

  it("outside a request nothing is added; inside a job its name and id are", () => {
    lines.length = 0;
    log.info("idle");
    runWithContext({ reqId: "req-9", job: "test-job", jobId: "j1" }, () => log.info("in a job"));
    const [idle, job] = parsed();
    expect(idle).not.toHaveProperty("reqId");
    expect(job).toMatchObject({ reqId: "req-9", job: "test-job" });
  });
});
