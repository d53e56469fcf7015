import { describe, expect, it } from "vitest";
import { rateFigures } from "../domains/campaign-dispatch/test-factory.js";
import { SendPacer } from "./send-pacer.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A receiver that sees each request some time after it starts and answers later still: the first
 * requests of a run (a new connection's handshake) arrive 120 ms late, the others 1-3 ms, with an
 * occasional 30 ms stall. Counting the window from the starts put 55 arrivals in one second for 50
 * (measured against smtp-server before this pacer); from the answers, never more than the rate.
 */
async function run(rate: number, total: number, slow: (i: number) => number) {
  const pacer = new SendPacer({ rate });
  const arrivals: number[] = [];
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const send = await pacer.slot();
    const delay = slow(i);
    inflight.push(
      sleep(delay).then(async () => {
        arrivals.push(Date.now());
        await sleep(1 + (i % 3));
        send.settle();
      }),
    );
  }
  await Promise.all(inflight);
  return rateFigures(arrivals);
}

describe("the send pacer", () => {
  it("never puts more than the rate in any one second where the receiver counts, late arrivals included", async () => {
    const f = await run(50, 200, (i) => (i < 5 ? 120 : i % 37 === 0 ? 30 : 1));
    expect(f.maxWindow).toBeLessThanOrEqual(50);
    expect(f.rate).toBeGreaterThan(45);
  });

  it("against a distant receiver keeps the rate: only the round trip's variation is waited for, and still never above", async () => {
    // 100-180 ms on the way there, 20 ms back: the answer-based window alone would give 50 × 1000 / (1001 + ~160)
    const pacer = new SendPacer({ rate: 50 });
    const arrivals: number[] = [];
    const inflight: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      const send = await pacer.slot();
      inflight.push(
        sleep(100 + ((i * 37) % 80)).then(async () => {
          arrivals.push(Date.now());
          await sleep(20);
          send.settle();
        }),
      );
    }
    await Promise.all(inflight);
    const f = rateFigures(arrivals);
    expect(f.maxWindow).toBeLessThanOrEqual(50);
    expect(f.rate).toBeGreaterThan(47);
  });

  it("waits for its gate before each send", async () => {
    const pacer = new SendPacer({ rate: 1000 });
    let open = false;
    const gate = async () => {
      while (!open) await sleep(5);
    };
    const pending = pacer.slot(gate);
    await sleep(30);
    let started = false;
    void pending.then(() => (started = true));
    await sleep(10);
    expect(started).toBe(false);
    open = true;
    const send = await pending;
    expect(send.answered).toBeNull();
    send.settle();
    expect(send.answered).not.toBeNull();
  });
});
