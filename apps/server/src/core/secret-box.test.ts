import { describe, expect, it } from "vitest";
import { maskSecret, openSecret, sealSecret, SecretUnreadable } from "./secret-box.js";

describe("stored secrets", () => {
  it("seal and open under the same key, differently each time, and refuse another key or a changed byte", () => {
    const key = "k".repeat(40);
    const a = sealSecret(key, "sk-live-123456");
    const b = sealSecret(key, "sk-live-123456");
    expect(a).not.toBe(b);
    expect(a).not.toContain("sk-live");
    expect(openSecret(key, a)).toBe("sk-live-123456");
    expect(() => openSecret("x".repeat(40), a)).toThrow(SecretUnreadable);
    const parts = a.split(":");
    const flipped = [...parts.slice(0, 3), (parts[3]![0] === "A" ? "B" : "A") + parts[3]!.slice(1)].join(":");
    expect(() => openSecret(key, flipped)).toThrow(SecretUnreadable);
    expect(() => openSecret(key, "plain")).toThrow(SecretUnreadable);
    expect(maskSecret("sk-live-123456")).toBe("••••3456");
    expect(maskSecret("")).toBe("");
  });
});
