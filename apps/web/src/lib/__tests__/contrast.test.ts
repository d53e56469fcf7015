import { describe, expect, it } from "vitest";
import { colorChipSx, textOn } from "../contrast";

describe("text colour on a chosen colour (WCAG contrast)", () => {
  it("light colours get black text", () => {
    expect(textOn("#ffffff")).toBe("#000000");
    expect(textOn("#FFEB3B")).toBe("#000000"); // yellow
    expect(textOn("#8bc34a")).toBe("#000000"); // light green
    expect(textOn("#00bcd4")).toBe("#000000"); // cyan
    expect(textOn("#ff9800")).toBe("#000000"); // orange
    expect(textOn("#fff")).toBe("#000000");
    expect(textOn("#ffeb3bcc")).toBe("#000000");
  });
  it("dark colours get white text", () => {
    expect(textOn("#000000")).toBe("#ffffff");
    expect(textOn("#1565c0")).toBe("#ffffff");
    expect(textOn("#7b1fa2")).toBe("#ffffff");
    expect(textOn("#c62828")).toBe("#ffffff");
  });
  it("a text that is not a colour gets the theme's", () => {
    expect(textOn("")).toBeUndefined();
    expect(textOn(null)).toBeUndefined();
    expect(textOn("blue")).toBeUndefined();
    expect(colorChipSx(undefined)).toEqual({});
    expect(colorChipSx("#ffeb3b")).toEqual({ bgcolor: "#ffeb3b", color: "#000000" });
  });
});
