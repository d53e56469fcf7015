import { describe, expect, it } from "vitest";
import { firstFreeColor } from "../color-palette";

describe("a new queue's default colour", () => {
  it("is the first palette colour no queue uses", () => {
    expect(firstFreeColor([])).toBe("#B71C1C");
    expect(firstFreeColor(["#b71c1c", "#D32F2F"])).toBe("#F44336");
  });
});
