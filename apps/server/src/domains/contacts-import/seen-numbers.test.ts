import { describe, expect, it } from "vitest";
import { SeenNumbers } from "./seen-numbers.js";

describe("SeenNumbers (an import's numbers and their first lines)", () => {
  it("answers the first line of every number through many growths, and nothing for numbers never added", () => {
    const seen = new SeenNumbers();
    // sequential numbers, numbers apart by a power of two (same low bits), and 15-digit ones
    const numbers = [
      ...Array.from({ length: 50_000 }, (_, i) => String(5511910000000 + i)),
      ...Array.from({ length: 5_000 }, (_, i) => String(5521900000000 + i * 4096)),
      ...Array.from({ length: 5_000 }, (_, i) => String(999999999000000 - i * 65536)),
    ];
    numbers.forEach((n, i) => seen.add(n, i + 2));
    numbers.forEach((n, i) => expect(seen.get(n)).toBe(i + 2));
    expect(seen.get("5511910050000")).toBeUndefined();
    expect(seen.get("5511920000000")).toBeUndefined();
  });

  it("keeps the first line of a number added twice", () => {
    const seen = new SeenNumbers();
    seen.add("5511933330002", 3);
    seen.add("5511933330002", 7);
    expect(seen.get("5511933330002")).toBe(3);
  });

  it("keeps numbers that are not plain digits up to 15 (longer, zero-led) apart and exact", () => {
    const seen = new SeenNumbers();
    const long = "12345678901234567890";
    seen.add(long, 4);
    seen.add("0551199990000", 5);
    seen.add("551199990000", 6);
    expect(seen.get(long)).toBe(4);
    expect(seen.get("12345678901234567891")).toBeUndefined();
    expect(seen.get("0551199990000")).toBe(5);
    expect(seen.get("551199990000")).toBe(6);
  });
});
