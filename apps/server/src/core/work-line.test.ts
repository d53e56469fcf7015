import { describe, expect, it } from "vitest";
import { WorkLine } from "./work-line.js";

describe("WorkLine", () => {
  it("hands what gathered meanwhile to the next run, never more than maxGroup, at most `parallel` at once", async () => {
    const groups: number[][] = [];
    let running = 0;
    let most = 0;
    const line = new WorkLine<number>(
      async (group) => {
        running++;
        most = Math.max(most, running);
        groups.push(group);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      },
      { parallel: 2, maxGroup: 3, onFailure: (err) => expect.unreachable(String(err)) },
    );
    for (let i = 0; i < 10; i++) line.push(i);
    await new Promise((r) => setTimeout(r, 60));
    expect(groups.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(groups[0]).toEqual([0]); // the first run starts at once
    expect(Math.max(...groups.map((g) => g.length))).toBe(3);
    expect(most).toBe(2);
  });

  it("keeps no more than maxWaiting and goes on after a failing group, which is reported", async () => {
    const seen: number[] = [];
    const failures: [string, number[]][] = [];
    const line = new WorkLine<number>(
      async (group) => {
        seen.push(...group);
        if (group.includes(0)) throw new Error("boom");
      },
      { parallel: 1, maxGroup: 10, maxWaiting: 2, onFailure: (err, group) => void failures.push([(err as Error).message, group]) },
    );
    expect([line.push(0), line.push(1), line.push(2), line.push(3)]).toEqual([true, true, true, false]);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([0, 1, 2]);
    expect(failures).toEqual([["boom", [0]]]);
  });

  it("with gatherMs, a steady flow makes a few large groups instead of one per item", async () => {
    const groups: number[][] = [];
    const line = new WorkLine<number>(async (group) => void groups.push(group), { parallel: 1, maxGroup: 500, gatherMs: 50, onFailure: (err) => expect.unreachable(String(err)) });
    for (let i = 0; i < 40; i++) {
      line.push(i);
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 120));
    expect(groups.flat()).toEqual(Array.from({ length: 40 }, (_, i) => i));
    // ~200 ms of items in runs that each waited 50 ms: a handful of groups, not forty
    expect(groups.length).toBeLessThanOrEqual(8);
  });
});
