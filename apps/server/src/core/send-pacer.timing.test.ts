import { describe, expect, it } from "vitest";
import { rateFigures } from "../domains/campaign-dispatch/test-factory.js";
import { CATCH_UP_TOLERANCE_MS, SendPacer } from "./send-pacer.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sends `total` through a pacer to a receiver that answers at once; `stall(i)` blocks the event loop before send i. */
async function run(rate: number, total: number, stall: (i: number) => number = () => 0) {
  const pacer = new SendPacer({ rate, catchUp: 2 });
  const starts: number[] = [];
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const block = stall(i);
    if (block) for (const until = Date.now() + block; Date.now() < until; );
    const send = await pacer.slot();
    starts.push(send.start);
    inflight.push(sleep(0).then(() => send.settle()));
  }
  await Promise.all(inflight);
  return { starts, ...rateFigures(starts) };
}

/** The most starts in any window of `ms` milliseconds. */
function densest(starts: number[], ms: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < starts.length; i++) {
    while (starts[i]! - starts[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("the send pacer at rates above the timer's resolution", () => {
  it("keeps 1,000 sends a second with its catch-up pace (one send per timer tick held it near 600)", async () => {
    const f = await run(1000, 3000);
    expect(f.maxWindow).toBeLessThanOrEqual(1000);
    expect(f.rate).toBeGreaterThan(950);
  });

  it("after a stalled event loop catches up at twice the rate at most, never in one burst", async () => {
    // 150 ms blocked twice: 150 sends late each time, made up at 2,000/s (two per millisecond)
    const f = await run(1000, 2500, (i) => (i === 800 || i === 1600 ? 150 : 0));
    expect(f.maxWindow).toBeLessThanOrEqual(1000);
    // 20 ms at twice the rate is 40 sends, plus what the tolerance lets go early
    expect(densest(f.starts, 20)).toBeLessThanOrEqual(40 + 2 * CATCH_UP_TOLERANCE_MS + 1);
  });
});
