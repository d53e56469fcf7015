import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildQueue, buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { connectedSandbox, inbound } from "../../channels/testing.js";

/**
 * Who gets credit (migration 0812): each interval of work goes to the agent and queue that held it, a
 * ticket is created once, and the drill-down shows the queue of the interval listed. Driven through
 * the real routes and the inbound pipeline (the triggers record what happens), read back from the
 * dashboard, the reports and their drill-down, today in the company's zone.
 *
 *   T1: created in queue A (Vendas) → agent 1 (Ana) accepts and answers → transferred to queue B
 *       (Suporte) and agent 2 (Bruno), who answers and closes it.
 *   T2: created in queue A → Ana accepts, answers and closes it → Ana reopens it (open, not answered).
 *
 * Before 0812 the reports said: created 3 (T2 twice), T1 wholly Bruno's and queue B's (created in B,
 * Ana's first answer under Bruno), T2 listed twice in "created", and the dashboard gave Ana 2 tickets.
 */

let app: TestApp;
let dataDir: string;
let t: Awaited<ReturnType<typeof buildTenant>>;
let queueA: number;
let queueB: number;
let ana: { id: number; token: string };
let bruno: { id: number; token: string };
let t1: number;
let t2: number;
/** today in the company's zone, both ends */
let today = "";

async function put(id: number, token: string, body: unknown) {
  const res = await app.api("PUT", `/api/tickets/${id}`, { token, body });
  expect(res.statusCode, res.body).toBe(200);
}
async function say(id: number, token: string, body: string) {
  const res = await app.api("POST", `/api/messages/${id}`, { token, body: { body, sign: false } });
  expect(res.statusCode, res.body).toBe(200);
}
async function get<T>(url: string): Promise<T> {
  const res = await app.api("GET", url, { token: t.admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

interface Row {
  id: number | null;
  name: string | null;
  created: number;
  resolved: number;
}
interface Item {
  ticketId: number;
  queueName: string | null;
  userName: string | null;
  messages: number;
}
const byName = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.name ?? "-", { created: r.created, resolved: r.resolved }]));
const listed = (items: Item[]) =>
  items.map((i) => [i.ticketId === t1 ? "T1" : i.ticketId === t2 ? "T2" : String(i.ticketId), i.queueName, i.userName, i.messages]).sort((a, b) => String(a).localeCompare(String(b)));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "atende-attribution-"));
  app = await createTestApp({ dataDir });
  t = await buildTenant(app);
  queueA = await buildQueue(app.sql, t.companyId, { name: "Vendas" });
  queueB = await buildQueue(app.sql, t.companyId, { name: "Suporte" });
  const a = await buildUser(app.sql, t.companyId, { profile: "user", name: "Ana", queueIds: [queueA] });
  const b = await buildUser(app.sql, t.companyId, { profile: "user", name: "Bruno", queueIds: [queueB] });
  ana = { id: a.id, token: await app.login(a.email) };
  bruno = { id: b.id, token: await app.login(b.email) };
  const { time_zone } = await app.sql.one<{ time_zone: string }>("SELECT time_zone FROM companies WHERE id = $1", [t.companyId]);
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: time_zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  today = `date_from=${day}&date_to=${day}`;
  const wa = await connectedSandbox(app, t.admin.token, { queueIds: [queueA] });

  t1 = (await inbound(app, t.admin.token, wa, { number: "5511977770001", body: "Oi" })).ticketId;
  await put(t1, ana.token, { action: "accept" });
  await say(t1, ana.token, "Bom dia, sou a Ana");
  await put(t1, ana.token, { action: "transfer", queueId: queueB, userId: bruno.id });
  await say(t1, bruno.token, "Aqui é o Bruno, do suporte");
  await say(t1, bruno.token, "Resolvido");
  await put(t1, bruno.token, { action: "finish" });

  t2 = (await inbound(app, t.admin.token, wa, { number: "5511977770002", body: "Olá" })).ticketId;
  await put(t2, ana.token, { action: "accept" });
  await say(t2, ana.token, "Pois não?");
  await put(t2, ana.token, { action: "finish" });
  await put(t2, ana.token, { action: "reopen" });
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("reports: each interval credited to who held it", () => {
  it("summary: each ticket created once (a reopening is not a new ticket), each holder's first answer", async () => {
    const s = await get<{ created: number; resolved: number; firstResponse: { count: number } }>(`/api/reports/summary?${today}`);
    expect({ created: s.created, resolved: s.resolved, answered: s.firstResponse.count }).toEqual({ created: 2, resolved: 2, answered: 3 });
  });

  it("by agent and by queue: Ana and queue A keep T1's creation and first answer, Bruno and queue B its close", async () => {
    const agents = await get<{ rows: (Row & { firstResponseMedian: number | null })[] }>(`/api/reports/breakdown?${today}&by=agent`);
    expect(byName(agents.rows)).toEqual({ Ana: { created: 2, resolved: 1 }, Bruno: { created: 0, resolved: 1 } });
    // each answered: Ana twice (T1, T2), Bruno once (T1): first-response counts through the agent filter
    const anaFr = await get<{ firstResponse: { count: number } }>(`/api/reports/summary?${today}&userId=${ana.id}`);
    const brunoFr = await get<{ firstResponse: { count: number } }>(`/api/reports/summary?${today}&userId=${bruno.id}`);
    expect([anaFr.firstResponse.count, brunoFr.firstResponse.count]).toEqual([2, 1]);

    const queues = await get<{ rows: Row[] }>(`/api/reports/breakdown?${today}&by=queue`);
    expect(byName(queues.rows)).toEqual({ Vendas: { created: 2, resolved: 1 }, Suporte: { created: 0, resolved: 1 } });
    const volume = await get<{ buckets: { created: number; resolved: number }[] }>(`/api/reports/volume?${today}`);
    expect(volume.buckets.reduce((n, b) => n + b.created, 0)).toBe(2);
  });

  it("drill-down: each ticket once, with the queue, agent and messages of the interval listed", async () => {
    const created = await get<{ items: Item[]; total: number }>(`/api/reports/tickets?${today}&metric=created`);
    expect(created.total).toBe(2);
    expect(listed(created.items)).toEqual([
      ["T1", "Vendas", "Ana", 1],
      ["T2", "Vendas", "Ana", 1],
    ]);
    const resolved = await get<{ items: Item[] }>(`/api/reports/tickets?${today}&metric=resolved`);
    expect(listed(resolved.items)).toEqual([
      ["T1", "Suporte", "Bruno", 2],
      ["T2", "Vendas", "Ana", 1],
    ]);
    // the queue-B rows of the first answers: T1 once, Bruno's interval
    const queueBAnswers = await get<{ items: Item[] }>(`/api/reports/tickets?${today}&metric=firstResponse&queueId=${queueB}`);
    expect(listed(queueBAnswers.items)).toEqual([["T1", "Suporte", "Bruno", 2]]);
    const queueAAnswers = await get<{ items: Item[] }>(`/api/reports/tickets?${today}&metric=firstResponse&queueId=${queueA}`);
    expect(listed(queueAAnswers.items)).toEqual([
      ["T1", "Vendas", "Ana", 1],
      ["T2", "Vendas", "Ana", 1],
    ]);
    // time held: Ana's T1 interval ended at the transfer; the reopened T2 is still hers (not ended)
    const t1Ana = (await get<{ items: (Item & { heldSeconds: number | null })[] }>(`/api/reports/tickets?${today}&metric=created`)).items.find((i) => i.ticketId === t1);
    expect(t1Ana?.heldSeconds).not.toBeNull();
  });

  it("dashboard: Ana took three intervals (T1, T2 and its reopening), Bruno one; one ticket created per hour slot", async () => {
    const d = await get<{
      counters: { supportFinished: number };
      attendants: { name: string; tickets: number; count_receptivo: number }[];
      hourly: { tickets: number }[];
    }>("/api/dashboard?days=1");
    expect(d.counters.supportFinished).toBe(2);
    const people = Object.fromEntries(d.attendants.filter((a) => a.name === "Ana" || a.name === "Bruno").map((a) => [a.name, [a.tickets, a.count_receptivo]]));
    expect(people).toEqual({ Ana: [3, 3], Bruno: [1, 1] });
    expect(d.hourly.reduce((n, h) => n + h.tickets, 0)).toBe(2);
  });
});
