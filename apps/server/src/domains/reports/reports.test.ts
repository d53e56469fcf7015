import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { buildQueue } from "../../../test/factories.js";
import { expectEvery } from "../../../test/expect-every.js";

/**
 * /api/reports against hand-computed values. Cycles are written with fixed instants (the triggers'
 * rows replaced). Company T works in America/Sao_Paulo (UTC−3): 2026-03-10..12 is
 * [03-10T03:00Z, 03-13T03:00Z). Seconds: queued → first agent answer (FR), queued → finished (RES).
 *
 * cycle ticket agent  queue conn tag origin    queued        first (FR)        finished (RES)      rating
 * K1    t1     U      Q1    W1   X   recept.   10 09:00      10 09:02 (120)    10 09:30 (1800)     5 @10 09:31
 * K2    t2     U      Q1    W1   -   ativo     11 10:00      11 10:00:30 (30)  11 11:00 (3600)     4 @11 11:01
 * K3    t3     Bruna  Q2    W1   Y   recept.   11 14:00      11 14:10 (600)    11 16:00 (7200)     2 @11 16:05
 * K4    t4     A      Q2    W2   X   recept.   09 22:00      09 23:00 (out)    10 00:30 (9000)     3 @10 01:00
 * K5    t5     U      -     W2   -   recept.   12 23:50      13 00:05 (out)    -                   -
 * K6    t6(p)  -      Q1    W1   X   recept.   12 16:00      -                 -                   -
 * K8    t8(o)  Bruna  Q1    W1   -   recept.   09 23:00      10 00:10 (4200)   -                   -
 * K9    t9(p)  -      Q1    W1   -   recept.   13 00:10 (the day after: outside)
 */

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let bruna: number;
let q1: number;
let q2: number;
let w1: number;
let w2: number;
let tagX: number;
let tagY: number;
let seq = 0;
const uuids: Record<string, string> = {};

async function ticket(companyId: number, status: string, originFromMe: boolean, whatsappId: number | null, tags: number[] = []) {
  const number = `55119${String(80000000 + ++seq)}`;
  const contactId = (
    await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, $2, $3) RETURNING id", [companyId, `Cliente ${seq}`, number])
  ).id;
  const row = await app.sql.one<{ id: number; uuid: string }>(
    "INSERT INTO tickets (company_id, contact_id, status, origin_from_me, whatsapp_id) VALUES ($1, $2, $3, $4, $5) RETURNING id, uuid::text AS uuid",
    [companyId, contactId, status, originFromMe, whatsappId],
  );
  await app.sql.exec("DELETE FROM ticket_traking WHERE ticket_id = $1", [row.id]);
  for (const tag of tags) await app.sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [companyId, row.id, tag]);
  return row;
}

interface Cycle {
  user: number | null;
  queue: number | null;
  conn: number | null;
  ativo?: boolean;
  queued: string;
  first?: string;
  finished?: string;
  rated?: string;
  rating?: number;
}
async function cycle(companyId: number, ticketId: number, c: Cycle): Promise<void> {
  await app.sql.exec(
    `INSERT INTO ticket_traking (company_id, ticket_id, user_id, queue_id, whatsapp_id, origin_from_me, queued_at, first_response_at, finished_at, rated_at, rating)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [companyId, ticketId, c.user, c.queue, c.conn, c.ativo ?? false, c.queued, c.first ?? null, c.finished ?? null, c.rated ?? null, c.rating ?? null],
  );
}

const sp = (day: string, time: string) => `2026-03-${day}T${time}-03:00`;
const get = (token: string | undefined, path: string) => app.api("GET", `/api/reports/${path}`, { token });
const RANGE = "date_from=2026-03-10&date_to=2026-03-12";

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  other = await buildTenant(app);
  const T = t.companyId;
  bruna = (await buildUser(app.sql, T, { profile: "user", name: "Bruna" })).id;
  q1 = await buildQueue(app.sql, T, { name: "Vendas" });
  q2 = await buildQueue(app.sql, T, { name: "Suporte" });
  w1 = (await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'Loja') RETURNING id", [T])).id;
  w2 = (await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, 'Oficina') RETURNING id", [T])).id;
  tagX = (await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, color) VALUES ($1, 'Vip', '#ff0000') RETURNING id", [T])).id;
  tagY = (await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, color) VALUES ($1, 'Reclamação', '#00ff00') RETURNING id", [T])).id;
  const U = t.user.id;
  const A = t.admin.id;

  const t1 = await ticket(T, "closed", false, w1, [tagX]);
  uuids.t1 = t1.uuid;
  await cycle(T, t1.id, { user: U, queue: q1, conn: w1, queued: sp("10", "09:00"), first: sp("10", "09:02"), finished: sp("10", "09:30"), rated: sp("10", "09:31"), rating: 5 });
  const t2 = await ticket(T, "closed", true, w1);
  await cycle(T, t2.id, { user: U, queue: q1, conn: w1, ativo: true, queued: sp("11", "10:00"), first: sp("11", "10:00:30"), finished: sp("11", "11:00"), rated: sp("11", "11:01"), rating: 4 });
  const t3 = await ticket(T, "closed", false, w1, [tagY]);
  await cycle(T, t3.id, { user: bruna, queue: q2, conn: w1, queued: sp("11", "14:00"), first: sp("11", "14:10"), finished: sp("11", "16:00"), rated: sp("11", "16:05"), rating: 2 });
  const t4 = await ticket(T, "closed", false, w2, [tagX]);
  await cycle(T, t4.id, { user: A, queue: q2, conn: w2, queued: sp("09", "22:00"), first: sp("09", "23:00"), finished: sp("10", "00:30"), rated: sp("10", "01:00"), rating: 3 });
  const t5 = await ticket(T, "open", false, w2);
  uuids.t5 = t5.uuid;
  await cycle(T, t5.id, { user: U, queue: null, conn: w2, queued: sp("12", "23:50"), first: sp("13", "00:05") });
  const t6 = await ticket(T, "pending", false, w1, [tagX]);
  await cycle(T, t6.id, { user: null, queue: q1, conn: w1, queued: sp("12", "16:00") });
  const t8 = await ticket(T, "open", false, w1);
  await cycle(T, t8.id, { user: bruna, queue: q1, conn: w1, queued: sp("09", "23:00"), first: sp("10", "00:10") });
  const t9 = await ticket(T, "pending", false, w1);
  await cycle(T, t9.id, { user: null, queue: q1, conn: w1, queued: sp("13", "00:10") });

  // the other company, in Tokyo (UTC+9): its 11 March is [03-10T15:00Z, 03-11T15:00Z)
  await app.sql.exec("UPDATE companies SET time_zone = 'Asia/Tokyo' WHERE id = $1", [other.companyId]);
  const o1 = await ticket(other.companyId, "closed", false, null);
  await cycle(other.companyId, o1.id, { user: other.admin.id, queue: null, conn: null, queued: "2026-03-10T15:30:00Z", finished: "2026-03-10T16:00:00Z" });
  await cycle(other.companyId, o1.id, { user: other.admin.id, queue: null, conn: null, queued: "2026-03-10T14:00:00Z", finished: "2026-03-10T14:30:00Z" });
});
afterAll(async () => {
  await app.close();
});

describe("reports: who may ask", () => {
  it("refuses no session (401) and a user (403) on every route; lets a supervisor in", async () => {
    for (const path of ["options", `summary?${RANGE}`, `volume?${RANGE}`, `breakdown?by=agent&${RANGE}`, `tickets?${RANGE}`, `tickets.csv?${RANGE}`]) {
      expect((await get(undefined, path)).statusCode, path).toBe(401);
      const res = await get(t.user.token, path);
      expect(res.statusCode, path).toBe(403);
      expect(res.json().error, path).toBe("ERR_NO_PERMISSION");
      expect((await get(t.supervisor.token, path)).statusCode, path).toBe(200);
    }
  });

  it("refuses bad input with ERR_VALIDATION", async () => {
    for (const path of [
      "summary?date_from=2026-03-10",
      "summary?date_from=2026-02-30&date_to=2026-03-01",
      "summary?date_from=2026-03-12&date_to=2026-03-10",
      "summary?date_from=2024-01-01&date_to=2026-01-01",
      "summary?queueId=abc",
      "summary?userId=-1",
      "summary?status=lost",
      "summary?origin=both",
      "summary?color=red",
      "breakdown?by=month",
      "breakdown",
      "tickets?metric=opened",
      "tickets?metric=csat&rating=6",
      "tickets?rating=5",
      "tickets?page=0",
      "tickets.csv?lang=fr",
    ]) {
      const res = await get(t.admin.token, path);
      expect(res.statusCode, path).toBe(400);
      expect(res.json().error, path).toBe("ERR_VALIDATION");
    }
  });
});

describe("reports: figures", () => {
  it("summary: volume, medians and p90, CSAT (São Paulo days)", async () => {
    const res = await get(t.admin.token, `summary?${RANGE}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      created: 5, // K1 K2 K3 K5 K6 (K4, K8 entered the day before, K9 the day after)
      resolved: 4, // K1 K2 K3 K4
      // FR 30, 120, 600, 4200: median (120 + 600) / 2; p90 at 2.7: 600 + 0.7 × 3600
      firstResponse: { count: 4, median: 360, p90: 3120 },
      // RES 1800, 3600, 7200, 9000: median 5400; p90 7200 + 0.7 × 1800
      resolution: { count: 4, median: 5400, p90: 8460 },
      csat: { count: 4, average: 3.5, satisfiedPercent: 50, distribution: [0, 1, 1, 1, 1] },
      range: { dateFrom: "2026-03-10", dateTo: "2026-03-12", timeZone: "America/Sao_Paulo" },
    });
  });

  it("summary: each filter", async () => {
    const s = async (q: string) => (await get(t.admin.token, `summary?${RANGE}&${q}`)).json();
    expect(await s(`userId=${t.user.id}`)).toMatchObject({
      created: 3, resolved: 2, firstResponse: { count: 2, median: 75 }, resolution: { median: 2700 }, csat: { average: 4.5, satisfiedPercent: 100 },
    });
    expect(await s("queueId=none")).toMatchObject({ created: 1, resolved: 0, firstResponse: { count: 0, median: null, p90: null } });
    expect(await s(`queueId=${q2}`)).toMatchObject({ created: 1, resolved: 2, resolution: { median: 8100 } });
    expect(await s(`tagId=${tagX}`)).toMatchObject({ created: 2, resolved: 2, csat: { count: 2, average: 4, distribution: [0, 0, 1, 0, 1] } });
    expect(await s("origin=ativo")).toMatchObject({ created: 1, resolved: 1, firstResponse: { median: 30 } });
    expect(await s("origin=receptivo")).toMatchObject({ created: 4, resolved: 3 });
    expect(await s("status=pending")).toMatchObject({ created: 1, resolved: 0 }); // K6 (K9 is outside)
    expect(await s(`whatsappId=${w2}`)).toMatchObject({ created: 1, resolved: 1, resolution: { median: 9000 }, csat: { average: 3 } });
    expect(await s("userId=none")).toMatchObject({ created: 1 });
    expect(await s(`userId=${t.user.id}&queueId=${q2}`)).toMatchObject({ created: 0, resolved: 0, csat: { count: 0, average: null, satisfiedPercent: null } });
  });

  it("reads days in the company's zone, and defaults to the last 7 days", async () => {
    // 12 March alone: K5 entered at 23:50 local (02:50Z on the 13th) is in; K9 (00:10 on the 13th) is not
    expect((await get(t.admin.token, "summary?date_from=2026-03-12&date_to=2026-03-12")).json()).toMatchObject({ created: 2, resolved: 0 });
    // Tokyo's 11 March: the cycle finished at 16:00Z (01:00 on the 11th there), not the one at 14:30Z
    const tokyo = (await get(other.admin.token, "summary?date_from=2026-03-11&date_to=2026-03-11")).json();
    expect(tokyo).toMatchObject({ created: 1, resolved: 1, resolution: { median: 1800 }, range: { timeZone: "Asia/Tokyo" } });
    const week = (await get(t.admin.token, "summary")).json();
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
    expect(week.range.dateTo).toBe(today);
    expect((Date.parse(week.range.dateTo) - Date.parse(week.range.dateFrom)) / 86_400_000).toBe(6);
  });

  it("keeps each company to its own rows", async () => {
    const body = (await get(other.admin.token, `summary?${RANGE}`)).json();
    expect(body).toMatchObject({ created: 2, resolved: 2, csat: { count: 0 } });
    const foreign = (await get(other.admin.token, `summary?${RANGE}&tagId=${tagX}`)).json();
    expect(foreign).toMatchObject({ created: 0, resolved: 0 });
    const options = (await get(other.admin.token, "options")).json();
    expect(options.queues).toEqual([]);
    expect(options.tags).toEqual([]);
    const list = (await get(other.admin.token, `tickets?${RANGE}&queueId=${q1}`)).json();
    expect(list.total).toBe(0);
  });

  it("volume per day, and per hour for one day", async () => {
    const days = (await get(t.admin.token, `volume?${RANGE}`)).json();
    expect(days.unit).toBe("day");
    expect(days.buckets).toEqual([
      { key: "2026-03-10", created: 1, resolved: 2 }, // K1; K1 and K4 (00:30 local)
      { key: "2026-03-11", created: 2, resolved: 2 },
      { key: "2026-03-12", created: 2, resolved: 0 },
    ]);
    const hours = (await get(t.admin.token, "volume?date_from=2026-03-11&date_to=2026-03-11")).json();
    expect(hours.unit).toBe("hour");
    expect(hours.buckets).toHaveLength(24);
    const busy = hours.buckets.filter((b: { created: number; resolved: number }) => b.created || b.resolved);
    expect(busy).toEqual([
      { key: "10", created: 1, resolved: 0 },
      { key: "11", created: 0, resolved: 1 },
      { key: "14", created: 1, resolved: 0 },
      { key: "16", created: 0, resolved: 1 },
    ]);
    const tagged = (await get(t.admin.token, `volume?${RANGE}&tagId=${tagY}`)).json();
    expect(tagged.buckets.map((b: { created: number }) => b.created)).toEqual([0, 1, 0]);
  });

  it("breakdown per agent, queue, tag and connection", async () => {
    const rows = async (by: string) => (await get(t.admin.token, `breakdown?by=${by}&${RANGE}`)).json().rows;
    expect(await rows("agent")).toEqual([
      { id: t.user.id, name: "Agent", created: 3, resolved: 2, firstResponseMedian: 75, resolutionMedian: 2700, csatAverage: 4.5, csatCount: 2 },
      { id: bruna, name: "Bruna", created: 1, resolved: 1, firstResponseMedian: 2400, resolutionMedian: 7200, csatAverage: 2, csatCount: 1 },
      { id: null, name: null, created: 1, resolved: 0, firstResponseMedian: null, resolutionMedian: null, csatAverage: null, csatCount: 0 },
      { id: t.admin.id, name: "Admin", created: 0, resolved: 1, firstResponseMedian: null, resolutionMedian: 9000, csatAverage: 3, csatCount: 1 },
    ]);
    expect(await rows("queue")).toEqual([
      { id: q1, name: "Vendas", created: 3, resolved: 2, firstResponseMedian: 120, resolutionMedian: 2700, csatAverage: 4.5, csatCount: 2 },
      { id: q2, name: "Suporte", created: 1, resolved: 2, firstResponseMedian: 600, resolutionMedian: 8100, csatAverage: 2.5, csatCount: 2 },
      { id: null, name: null, created: 1, resolved: 0, firstResponseMedian: null, resolutionMedian: null, csatAverage: null, csatCount: 0 },
    ]);
    expect(await rows("tag")).toEqual([
      { id: tagX, name: "Vip", created: 2, resolved: 2, firstResponseMedian: 120, resolutionMedian: 5400, csatAverage: 4, csatCount: 2 },
      { id: tagY, name: "Reclamação", created: 1, resolved: 1, firstResponseMedian: 600, resolutionMedian: 7200, csatAverage: 2, csatCount: 1 },
    ]);
    expect(await rows("connection")).toEqual([
      { id: w1, name: "Loja", created: 4, resolved: 3, firstResponseMedian: 360, resolutionMedian: 3600, csatAverage: 3.67, csatCount: 3 },
      { id: w2, name: "Oficina", created: 1, resolved: 1, firstResponseMedian: null, resolutionMedian: 9000, csatAverage: 3, csatCount: 1 },
    ]);
  });

  it("lists the tickets behind each figure, newest event first", async () => {
    const list = async (q: string) => (await get(t.admin.token, `tickets?${RANGE}&${q}`)).json();
    const created = await list("metric=created");
    expect(created).toMatchObject({ total: 5, page: 1, pageSize: 40 });
    expect(created.items.map((i: { contactName: string }) => i.contactName)).toEqual(["Cliente 5", "Cliente 6", "Cliente 3", "Cliente 2", "Cliente 1"]);
    expect(created.items[0]).toMatchObject({
      uuid: uuids.t5, status: "open", queueName: null, userName: "Agent", connectionName: "Oficina", origin: "receptivo",
      queuedAt: "2026-03-13T02:50:00.000Z", firstResponseAt: "2026-03-13T03:05:00.000Z", finishedAt: null, firstResponseSeconds: 900, resolutionSeconds: null, rating: null,
    });
    expect((await list("metric=resolved")).total).toBe(4);
    expect((await list("metric=firstResponse")).items.map((i: { firstResponseSeconds: number }) => i.firstResponseSeconds)).toEqual([600, 30, 120, 4200]);
    const fives = await list("metric=csat&rating=5");
    expect(fives.items).toHaveLength(1);
    expect(fives.items[0]).toMatchObject({ uuid: uuids.t1, rating: 5, resolutionSeconds: 1800 });
    expect((await list(`metric=created&userId=${bruna}`)).items.map((i: { contactName: string }) => i.contactName)).toEqual(["Cliente 3"]);
  });
});

describe("reports: paging and CSV", () => {
  beforeAll(async () => {
    // 1001 cycles entered at the very same instant on 1 April (keyset ties broken by id), one with a hostile name
    const tk = await ticket(t.companyId, "closed", false, w1);
    await app.sql.exec("UPDATE contacts SET name = '=HYPERLINK(\"x\";\"y\")' WHERE id = (SELECT contact_id FROM tickets WHERE id = $1)", [tk.id]);
    await app.sql.exec(
      `INSERT INTO ticket_traking (company_id, ticket_id, user_id, queue_id, whatsapp_id, queued_at, finished_at, rating, rated_at)
       SELECT $1, $2, $3, $4, $5, '2026-04-01T12:00:00.123456Z', '2026-04-01T12:30:00.123456Z', CASE WHEN g % 2 = 0 THEN 5 END, CASE WHEN g % 2 = 0 THEN '2026-04-01T13:00:00Z'::timestamptz END
         FROM generate_series(1, 1001) g`,
      [t.companyId, tk.id, t.user.id, q1, w1],
    );
  });
  const APRIL = "date_from=2026-04-01&date_to=2026-04-01";

  it("pages 40 at a time", async () => {
    const p1 = (await get(t.admin.token, `tickets?${APRIL}`)).json();
    expect(p1).toMatchObject({ total: 1001, page: 1, pageSize: 40 });
    expect(p1.items).toHaveLength(40);
    const last = (await get(t.admin.token, `tickets?${APRIL}&page=26`)).json();
    expect(last.items).toHaveLength(1);
    const ids = new Set<number>();
    for (const page of [1, 2, 3]) for (const i of (await get(t.admin.token, `tickets?${APRIL}&page=${page}`)).json().items) ids.add(i.cycleId);
    expect(ids.size).toBe(120);
  });

  it("streams every row once, with BOM, header, ; and the filters", async () => {
    const res = await get(t.admin.token, `tickets.csv?${APRIL}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="tickets-2026-04-01-2026-04-01.csv"');
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = res.body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines[0]).toBe(
      "Ticket;Link;Contato;Número;Status;Fila;Atendente;Conexão;Origem;Entrada;Primeira resposta;Finalizado;Primeira resposta (s);Resolução (s);Avaliação;Mensagens;Tempo com o atendente (s)",
    );
    expect(lines).toHaveLength(1002);
    expect(lines[1]).toMatch(/^\d+;http:\/\/[^;]+\/tickets\/[0-9a-f-]{36};"'=HYPERLINK\(""x"";""y""\)";55119\d+;Finalizado;Vendas;Agent;Loja;Receptivo;2026-04-01 09:00:00;;2026-04-01 09:30:00;;1800;;0;$/);
    // CSAT 5 only: the filters apply
    const fives = await get(t.admin.token, `tickets.csv?${APRIL}&metric=csat&rating=5&lang=en`);
    const rows = fives.body.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(rows[0]!.startsWith("Ticket;Link;Contact;Number;Status;Queue;Agent")).toBe(true);
    expect(rows).toHaveLength(501);
    expectEvery(rows.slice(1), (r) => r.endsWith(";5;0;")); // rating 5, no agent message, never accepted
    // the status and origin in the export's language, never the stored `closed` / `receptivo`
    expect(rows[1]).toMatch(/;55119\d+;Finished;Vendas;Agent;Loja;Inbound;/);
    const es = (await get(t.admin.token, `tickets.csv?${APRIL}&metric=csat&rating=5&lang=es`)).body.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(es[1]).toMatch(/;55119\d+;Finalizado;Vendas;Agent;Loja;Receptivo;/);
  });
});

describe("first response, recorded by the messages trigger", () => {
  it("takes the first agent message of the cycle; contacts, bots and later messages leave it", async () => {
    const T = t.companyId;
    const contactId = (await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'Tr', '5511999990001') RETURNING id", [T])).id;
    const tk = await app.sql.one<{ id: number }>("INSERT INTO tickets (company_id, contact_id, status, whatsapp_id) VALUES ($1, $2, 'pending', $3) RETURNING id", [T, contactId, w1]);
    const msg = (fromMe: boolean, userId: number | null, at: string) =>
      app.sql.exec("INSERT INTO messages (company_id, ticket_id, contact_id, from_me, user_id, body, created_at) VALUES ($1, $2, $3, $4, $5, 'x', $6)", [
        T, tk.id, contactId, fromMe, userId, at,
      ]);
    const first = async () =>
      (await app.sql.one<{ f: Date | null }>("SELECT first_response_at AS f FROM ticket_traking WHERE ticket_id = $1 ORDER BY id DESC LIMIT 1", [tk.id])).f;
    const soon = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    await msg(false, null, soon(1)); // the customer
    await msg(true, null, soon(2)); // the queue menu / a bot
    expect(await first()).toBeNull();
    const answered = soon(3);
    await msg(true, t.user.id, answered);
    expect((await first())?.toISOString()).toBe(answered);
    await msg(true, t.user.id, soon(10));
    expect((await first())?.toISOString()).toBe(answered);
  });
});
