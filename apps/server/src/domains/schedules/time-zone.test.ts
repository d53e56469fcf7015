import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox } from "../../channels/testing.js";
import { insertContact } from "./test-fixtures.js";
import { waitFor } from "../../../test/wait.js";

let app: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-schedules-tz-"));
  app = await createTestApp({ dataDir });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The wall clock of `date` in `timeZone`, as the schedule dialog sends it (yyyy-MM-ddTHH:mm:ss). */
function wallClock(date: Date, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })
      .formatToParts(date)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

describe("schedules in the company's time zone", () => {
  it("a date and time without offset is the company's wall clock; an instant with Z is kept", async () => {
    const t = await buildTenant(app);
    await app.sql.exec("UPDATE companies SET time_zone = 'America/Manaus' WHERE id = $1", [t.companyId]);
    const contactId = await insertContact(app.sql, t.companyId);
    const local = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Lembrete da consulta", contactId, sendAt: "2030-03-10T09:30" } });
    expect(local.statusCode).toBe(200);
    expect(local.json().sendAt).toBe("2030-03-10T13:30:00.000Z");
    const instant = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Lembrete da consulta", contactId, sendAt: "2030-03-10T09:30:00Z" } });
    expect(instant.json().sendAt).toBe("2030-03-10T09:30:00.000Z");
    const moved = await app.api("PUT", `/api/schedules/${instant.json().id}`, { token: t.admin.token, body: { sendAt: "2030-03-11T08:00" } });
    expect(moved.json().sendAt).toBe("2030-03-11T12:00:00.000Z");
    // the same wall clock in a São Paulo company is an hour earlier
    const sp = await buildTenant(app);
    const spContact = await insertContact(app.sql, sp.companyId);
    const spRes = await app.api("POST", "/api/schedules", { token: sp.admin.token, body: { body: "Lembrete da consulta", contactId: spContact, sendAt: "2030-03-10T09:30" } });
    expect(spRes.json().sendAt).toBe("2030-03-10T12:30:00.000Z");
    const bad = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Lembrete da consulta", contactId, sendAt: "2030-02-31T25:00" } });
    expect(bad.statusCode).toBe(400);
  });

  it("is sent at the instant the company's wall clock shows the time entered", async () => {
    const t = await buildTenant(app);
    await app.sql.exec("UPDATE companies SET time_zone = 'America/Manaus' WHERE id = $1", [t.companyId]);
    await connectedSandbox(app, t.admin.token);
    const contactId = await insertContact(app.sql, t.companyId, { name: "Joana" });
    const due = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
    const res = await app.api("POST", "/api/schedules", { token: t.admin.token, body: { body: "Chegou a hora, Joana", contactId, sendAt: wallClock(due, "America/Manaus") } });
    expect(res.json().sendAt).toBe(due.toISOString());
    const row = await waitFor(() => app.sql.maybe<{ sent_at: Date }>("SELECT sent_at FROM schedules WHERE id = $1 AND status = 'ENVIADA'", [res.json().id]));
    expect(row.sent_at.getTime()).toBeGreaterThanOrEqual(due.getTime());
    expect(row.sent_at.getTime()).toBeLessThan(due.getTime() + 8000);
  });
});
