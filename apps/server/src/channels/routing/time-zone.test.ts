import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound, phoneOutbox, setSetting } from "../testing.js";

let app: TestApp;
let dataDir: string;
let seq = 0;
const newNumber = () => `5531${String(700000000 + ++seq * 7919).slice(0, 9)}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-routing-tz-"));
  app = await createTestApp({ dataDir });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;

/**
 * Every day open for the current hour as a clock in São Paulo shows it. Manaus is one hour behind
 * São Paulo all year (neither has daylight saving), so at this instant a company there is closed.
 */
function openThisSaoPauloHour() {
  const hour = Number(new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone: "America/Sao_Paulo" }).format(new Date()));
  return DAYS.map((d) => ({ weekday: d, weekdayEn: d, startTime: hh(hour), endTime: hour === 23 ? "23:59" : hh(hour + 1) }));
}

async function companyIn(timeZone: string, scheduleType: "company" | "queue") {
  const t = await buildTenant(app);
  await app.sql.exec("UPDATE companies SET time_zone = $2 WHERE id = $1", [t.companyId, timeZone]);
  await setSetting(app, t.companyId, "scheduleType", scheduleType);
  return t;
}

describe("opening hours in the company's time zone", () => {
  it("scheduleType=company: the same hours and instant are open in São Paulo and closed in Manaus", async () => {
    const hours = openThisSaoPauloHour();
    const outbox: Record<string, string[]> = {};
    for (const zone of ["America/Sao_Paulo", "America/Manaus"]) {
      const t = await companyIn(zone, "company");
      await app.sql.exec("UPDATE companies SET schedules = $2::jsonb WHERE id = $1", [t.companyId, JSON.stringify(hours)]);
      const a = await buildQueue(app.sql, t.companyId, { name: "Comercial" });
      const b = await buildQueue(app.sql, t.companyId, { name: "Financeiro" });
      const wa = await connectedSandbox(app, t.admin.token, { queueIds: [a, b], greetingMessage: "Menu", fields: { outOfHoursMessage: "Fechados agora." } });
      const number = newNumber();
      await inbound(app, t.admin.token, wa, { number, name: "Ana", body: "oi" });
      outbox[zone] = await phoneOutbox(app, t.admin.token, wa, number);
    }
    expect(outbox).toEqual({ "America/Sao_Paulo": ["Menu\n\n*1* - Comercial\n*2* - Financeiro"], "America/Manaus": ["Fechados agora."] });
  });

  it("scheduleType=queue: a queue's hours are read in its company's zone", async () => {
    const hours = JSON.stringify(openThisSaoPauloHour());
    const outbox: Record<string, string[]> = {};
    for (const zone of ["America/Sao_Paulo", "America/Manaus"]) {
      const t = await companyIn(zone, "queue");
      const q = await buildQueue(app.sql, t.companyId, { name: "Loja" });
      await app.sql.exec("UPDATE queues SET greeting_message = 'Loja aberta!', out_of_hours_message = 'Loja fechada.', schedules = $2::jsonb WHERE id = $1", [q, hours]);
      const wa = await connectedSandbox(app, t.admin.token, { queueIds: [q] });
      const number = newNumber();
      await inbound(app, t.admin.token, wa, { number, name: "Rui", body: "oi" });
      outbox[zone] = await phoneOutbox(app, t.admin.token, wa, number);
    }
    expect(outbox).toEqual({ "America/Sao_Paulo": ["Loja aberta!"], "America/Manaus": ["Loja fechada."] });
  });
});
