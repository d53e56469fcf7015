import { describe, expect, it } from "vitest";
import { dateToZonedLocal, isTimeZone, zonedLocalToDate } from "../src/time-zone.js";
import { scheduleInput } from "../src/schemas/schedules.js";

describe("company time zone", () => {
  it("reads a wall-clock time in the given zone", () => {
    expect(zonedLocalToDate("2026-11-24T09:30", "America/Sao_Paulo").toISOString()).toBe("2026-11-24T12:30:00.000Z");
    expect(zonedLocalToDate("2026-11-24T09:30", "America/Manaus").toISOString()).toBe("2026-11-24T13:30:00.000Z");
    expect(zonedLocalToDate("2026-07-01T09:30:15", "Europe/Lisbon").toISOString()).toBe("2026-07-01T08:30:15.000Z");
    expect(Number.isNaN(zonedLocalToDate("24/11/2026 09:30", "UTC").getTime())).toBe(true);
  });

  it("shows an instant as the wall-clock time of the zone", () => {
    expect(dateToZonedLocal(new Date("2026-11-24T12:30:00Z"), "America/Sao_Paulo")).toBe("2026-11-24T09:30");
    expect(dateToZonedLocal(new Date("2026-11-24T02:00:00Z"), "America/Manaus")).toBe("2026-11-23T22:00");
  });

  it("knows IANA names only", () => {
    expect(isTimeZone("America/Manaus")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Brasil/Horário")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("keeps a schedule's wall-clock send time for the server to read in the company's zone", () => {
    const base = { body: "Olá, tudo bem?", contactId: 1 };
    expect(scheduleInput.parse({ ...base, sendAt: "2026-11-24T09:30" }).sendAt).toBe("2026-11-24T09:30");
    expect(scheduleInput.parse({ ...base, sendAt: "2026-11-24T12:30:00Z" }).sendAt).toEqual(new Date("2026-11-24T12:30:00Z"));
    expect(scheduleInput.safeParse({ ...base, sendAt: "amanhã" }).success).toBe(false);
    expect(scheduleInput.safeParse({ ...base, sendAt: "" }).error?.issues[0]?.message).toBe("Obrigatório");
  });
});

describe("wall-clock times that do not exist", () => {
  it("are refused rather than rolled over", () => {
    expect(Number.isNaN(zonedLocalToDate("2026-02-31T10:00", "America/Sao_Paulo").getTime())).toBe(true);
    expect(Number.isNaN(zonedLocalToDate("2026-02-10T24:00", "America/Sao_Paulo").getTime())).toBe(true);
  });
});
