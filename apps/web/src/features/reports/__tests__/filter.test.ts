import { describe, expect, it } from "vitest";
import { apiFilters, filterFromUrl, filterToUrl, formatDuration } from "../filter";

describe("report filter in the URL", () => {
  it("defaults to the last 7 days, today included, and nothing else", () => {
    expect(filterFromUrl(new URLSearchParams(), "2026-03-12")).toEqual({
      dateFrom: "2026-03-06", dateTo: "2026-03-12", queue: "", agent: "", tag: "", connection: "", status: "", origin: "",
    });
  });

  it("reads back what it writes, and drops malformed values", () => {
    const url = new URLSearchParams("from=2026-03-01&to=2026-03-31&queue=none&agent=7&tag=3&connection=2&status=closed&origin=ativo");
    const f = filterFromUrl(url, "2026-03-12");
    expect(filterToUrl(f).toString()).toBe(url.toString());
    expect(apiFilters(f)).toEqual({ date_from: "2026-03-01", date_to: "2026-03-31", queueId: "none", userId: 7, tagId: 3, whatsappId: 2, status: "closed", origin: "ativo" });
    const bad = filterFromUrl(new URLSearchParams("from=2026-03-10&to=2026-03-01&queue=x&tag=none&status=lost&origin=1"), "2026-03-12");
    expect(bad).toMatchObject({ dateFrom: "2026-03-06", dateTo: "2026-03-12", queue: "", tag: "", status: "", origin: "" });
  });

  it("shows durations as people read them", () => {
    expect([null, 0, 45, 90, 360, 3599, 3600, 5400, 90000].map(formatDuration)).toEqual([
      "—", "0 s", "45 s", "2 min", "6 min", "1 h 00 min", "1 h 00 min", "1 h 30 min", "1 d 1 h",
    ]);
  });
});
