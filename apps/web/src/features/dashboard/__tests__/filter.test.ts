import { describe, expect, it } from "vitest";
import { defaultFilter, formatMinutes, paramsOf } from "../filter";

describe("dashboard filter", () => {
  it("opens on the first of the month to today", () => {
    expect(defaultFilter("2026-11-25")).toEqual({ type: "date", dateFrom: "2026-11-01", dateTo: "2026-11-25", days: "", tagIds: [] });
    expect(paramsOf(defaultFilter("2026-11-25"))).toEqual({ dateFrom: "2026-11-01", dateTo: "2026-11-25", tagIds: [] });
  });

  it("sets no filter without a period or without both dates ('Parametrize o filtro')", () => {
    const base = defaultFilter("2026-11-25");
    expect(paramsOf({ ...base, type: "period", days: "" })).toBeNull();
    expect(paramsOf({ ...base, dateFrom: "" })).toBeNull();
    expect(paramsOf({ ...base, dateTo: "invalid" })).toBeNull();
    expect(paramsOf({ ...base, type: "period", days: 7, tagIds: [3] })).toEqual({ days: 7, tagIds: [3] });
  });

  it("shows minutes, then hours and minutes", () => {
    expect(formatMinutes(0)).toBe("0 min");
    expect(formatMinutes(42.4)).toBe("42 min");
    expect(formatMinutes(59.6)).toBe("1 h 00 min");
    expect(formatMinutes(125)).toBe("2 h 05 min");
  });
});
