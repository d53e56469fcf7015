import { describe, expect, it } from "vitest";
import { JsonRowBuffer } from "./row-buffer.js";

describe("JsonRowBuffer", () => {
  it("gives back the rows as one JSON array, growing past its first megabyte, and starts again empty", () => {
    const b = new JsonRowBuffer();
    expect(b.take()).toBe("[]");
    const rows: unknown[][] = [];
    for (let i = 0; i < 8000; i++) rows.push([i, `5511${i}`, "çã \"aspas\" ; é", ["ü", "😀".repeat(i % 50), ""], i % 3 ? null : 7]);
    for (const r of rows) b.push(r);
    expect(b.count).toBe(8000);
    const before = b.bytes;
    const text = b.take();
    // `bytes` counted the text but its closing bracket
    expect(Buffer.byteLength(text)).toBe(before + 1);
    expect(b.bytes).toBe(0);
    expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 20);
    expect(JSON.parse(text)).toEqual(rows);
    expect(b.count).toBe(0);
    b.push([1, "a"]);
    expect(JSON.parse(b.take())).toEqual([[1, "a"]]);
  });
});
