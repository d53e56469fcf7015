import { describe, expect, it } from "vitest";
import { DEFAULT_QUEUE_SCHEDULES } from "@atende/shared";
import { isOpen, localTime } from "./opening-hours.js";

// São Paulo is UTC-3 all year (no daylight saving since 2019): 2025-06-02 is a Monday.
const sp = (isoLocal: string) => new Date(`${isoLocal}-03:00`);

describe("opening hours", () => {
  it("reads the weekday and time in the company's timezone, not UTC", () => {
    // Monday 23:30 in São Paulo is already Tuesday 02:30 UTC.
    expect(localTime(sp("2025-06-02T23:30:00"))).toEqual({ weekdayEn: "monday", seconds: 23 * 3600 + 30 * 60 });
    expect(localTime(new Date("2025-06-03T02:30:00Z"), "UTC").weekdayEn).toBe("tuesday");
  });

  it("applies the default hours: weekdays 08-18, Saturday 08-12, Sunday closed", () => {
    const s = DEFAULT_QUEUE_SCHEDULES;
    expect(isOpen(s, sp("2025-06-02T07:59:59"))).toBe(false);
    expect(isOpen(s, sp("2025-06-02T08:00:00"))).toBe(true);
    expect(isOpen(s, sp("2025-06-04T12:00:00"))).toBe(true);
    expect(isOpen(s, sp("2025-06-06T17:59:59"))).toBe(true);
    expect(isOpen(s, sp("2025-06-06T18:00:00"))).toBe(false);
    expect(isOpen(s, sp("2025-06-07T11:59:00"))).toBe(true);
    expect(isOpen(s, sp("2025-06-07T12:00:00"))).toBe(false);
    expect(isOpen(s, sp("2025-06-08T00:00:00"))).toBe(false);
    expect(isOpen(s, sp("2025-06-08T10:00:00"))).toBe(false);
  });

  it("is open when nothing is configured and closed on a missing or empty day", () => {
    expect(isOpen([], sp("2025-06-08T03:00:00"))).toBe(true);
    expect(isOpen(undefined, sp("2025-06-08T03:00:00"))).toBe(true);
    const onlyMonday = [{ weekdayEn: "monday", startTime: "08:00", endTime: "18:00" }];
    expect(isOpen(onlyMonday, sp("2025-06-03T10:00:00"))).toBe(false);
    expect(isOpen([{ weekdayEn: "monday", startTime: "", endTime: "" }], sp("2025-06-02T10:00:00"))).toBe(false);
  });

  it("covers the whole day with 00:00-23:59 and handles overnight ranges", () => {
    const allDay = [{ weekdayEn: "monday", startTime: "00:00", endTime: "23:59" }];
    expect(isOpen(allDay, sp("2025-06-02T00:00:00"))).toBe(true);
    expect(isOpen(allDay, sp("2025-06-02T23:59:59"))).toBe(true);
    const night = [{ weekdayEn: "friday", startTime: "22:00", endTime: "06:00" }];
    expect(isOpen(night, sp("2025-06-06T23:00:00"))).toBe(true);
    expect(isOpen(night, sp("2025-06-06T05:00:00"))).toBe(true);
    expect(isOpen(night, sp("2025-06-06T12:00:00"))).toBe(false);
  });

  it("uses the timezone argument", () => {
    const s = [{ weekdayEn: "monday", startTime: "08:00", endTime: "18:00" }];
    const instant = new Date("2025-06-02T10:00:00Z"); // 07:00 in São Paulo, 10:00 in UTC
    expect(isOpen(s, instant)).toBe(false);
    expect(isOpen(s, instant, "UTC")).toBe(true);
  });
});
