import { describe, expect, it, vi } from "vitest";
import { TtlCache } from "./ttl-cache.js";

describe("TtlCache", () => {
  it("reuses a value within its time, reads again after it, forgets failures", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const cache = new TtlCache<number, string>(1000);
      let reads = 0;
      const load = () => Promise.resolve(`v${++reads}`);
      expect(await cache.get(1, load)).toBe("v1");
      expect(await cache.get(1, load)).toBe("v1");
      vi.advanceTimersByTime(1001);
      expect(await cache.get(1, load)).toBe("v2");

      await expect(cache.get(2, () => Promise.reject(new Error("down")))).rejects.toThrow("down");
      expect(await cache.get(2, load)).toBe("v3");
      cache.delete(2);
      expect(await cache.get(2, load)).toBe("v4");
    } finally {
      vi.useRealTimers();
    }
  });

  it("empties itself past its size", async () => {
    const cache = new TtlCache<number, number>(60_000, 2);
    let reads = 0;
    const load = () => Promise.resolve(++reads);
    await cache.get(1, load);
    await cache.get(2, load);
    await cache.get(3, load); // clears, then holds 3
    expect(await cache.get(1, load)).toBe(4);
  });
});
