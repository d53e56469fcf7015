import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";

/**
 * GET /dashboard against hand-computed values. The cycles are written with fixed instants (the
 * triggers' rows replaced), so every figure below is counted by hand from the table in the comments.
 * Company T works in America/Sao_Paulo (UTC−3): the range 2026-03-10..12 is
 * [2026-03-10T03:00Z, 2026-03-13T03:00Z).
 */

let app: TestApp;
let t: Awaited<ReturnType<typeof buildTenant>>;
let other: Awaited<ReturnType<typeof buildTenant>>;
let bruna: number;
let tagX: number;
let tagY: number;
let seq = 0;

async function contact(companyId: number, createdAt: string, isGroup = false): Promise<number> {
  const n = `55119${String(70000000 + ++seq)}`;
  return (
    await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number, is_group, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id", [
      companyId,
      `Contato ${seq}`,
      isGroup ? `${n}-group` : n,
      isGroup,
      createdAt,
    ])
  ).id;
}

async function ticket(companyId: number, contactId: number, status: string, originFromMe: boolean, tags: number[] = []): Promise<number> {
  const { id } = await app.sql.one<{ id: number }>(
    "INSERT INTO tickets (company_id, contact_id, status, origin_from_me) VALUES ($1, $2, $3, $4) RETURNING id",
    [companyId, contactId, status, originFromMe],
  );
  await app.sql.exec("DELETE FROM ticket_traking WHERE ticket_id = $1", [id]);
  for (const tag of tags) await app.sql.exec("INSERT INTO ticket_tags (company_id, ticket_id, tag_id) VALUES ($1, $2, $3)", [companyId, id, tag]);
  return id;
}

async function cycle(
  companyId: number,
  ticketId: number,
  c: { user: number | null; ativo: boolean; queued: string; started?: string; finished?: string },
): Promise<void> {
  await app.sql.exec(
    `INSERT INTO ticket_traking (company_id, ticket_id, user_id, origin_from_me, queued_at, started_at, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [companyId, ticketId, c.user, c.ativo, c.queued, c.started ?? null, c.finished ?? null],
  );
}

/** A wall-clock time of today in a zone, as an ISO instant (today's hourly chart). */
function todayAt(timeZone: string, hh: string, mm: string): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const offset = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(new Date(`${day}T12:00:00Z`))
    .find((p) => p.type === "timeZoneName")!
    .value.replace("GMT", "");
  return `${day}T${hh}:${mm}:00${offset || "+00:00"}`;
}

const get = (token: string | undefined, query = "") => app.api("GET", `/api/dashboard${query}`, { token });
const RANGE = "?date_from=2026-03-10&date_to=2026-03-12";

beforeAll(async () => {
  app = await createTestApp();
  t = await buildTenant(app);
  other = await buildTenant(app);
  bruna = (await buildUser(app.sql, t.companyId, { profile: "user", name: "Bruna" })).id;
  tagX = (await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, color) VALUES ($1, 'Vip', '#ff0000') RETURNING id", [t.companyId])).id;
  tagY = (await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, color) VALUES ($1, 'Reclamação', '#00ff00') RETURNING id", [t.companyId])).id;
  const U = t.user.id;
  const A = t.admin.id;
  const T = t.companyId;

  // contacts: c1, c2 new in the range (c2 at 23:00 of the last day); c3 00:30 the day after, c4 23:59 the day before,
  // c5 long ago: outside; a group created in the range is no lead
  const c1 = await contact(T, "2026-03-10T12:00:00Z");
  const c2 = await contact(T, "2026-03-12T23:00:00-03:00");
  const c3 = await contact(T, "2026-03-13T00:30:00-03:00");
  const c4 = await contact(T, "2026-03-09T23:59:00-03:00");
  const c5 = await contact(T, "2026-02-01T12:00:00Z");
  await contact(T, "2026-03-11T12:00:00Z", true);

  // K1 t1 c1 receptivo, U: wait 10, support 30, tag X
  const t1 = await ticket(T, c1, "closed", false, [tagX]);
  await cycle(T, t1, { user: U, ativo: false, queued: "2026-03-10T09:00:00-03:00", started: "2026-03-10T09:10:00-03:00", finished: "2026-03-10T09:40:00-03:00" });
  // K2 t2 c2 ativo, U: created open (no wait), support 60
  const t2 = await ticket(T, c2, "closed", true);
  await cycle(T, t2, { user: U, ativo: true, queued: "2026-03-11T10:00:00-03:00", started: "2026-03-11T10:00:00-03:00", finished: "2026-03-11T11:00:00-03:00" });
  // K3 t3 c5: accepted, then transferred to Bruna who finished it: wait 20, support 60, tag Y
  const t3 = await ticket(T, c5, "closed", false, [tagY]);
  await cycle(T, t3, { user: bruna, ativo: false, queued: "2026-03-11T14:00:00-03:00", started: "2026-03-11T14:20:00-03:00", finished: "2026-03-11T15:20:00-03:00" });
  // t4 c1, tag X, reopened: K4 started the day before the range, finished in it (support 60);
  // K5 the reopening (open at once), support 45
  const t4 = await ticket(T, c1, "closed", false, [tagX]);
  await cycle(T, t4, { user: A, ativo: false, queued: "2026-03-09T22:00:00-03:00", started: "2026-03-09T23:30:00-03:00", finished: "2026-03-10T00:30:00-03:00" });
  await cycle(T, t4, { user: A, ativo: false, queued: "2026-03-12T08:00:00-03:00", started: "2026-03-12T08:00:00-03:00", finished: "2026-03-12T08:45:00-03:00" });
  // K6 t5 c4, tag Y: entered 10 minutes before the range's end, accepted and finished after it
  const t5 = await ticket(T, c4, "closed", false, [tagY]);
  await cycle(T, t5, { user: U, ativo: false, queued: "2026-03-12T23:50:00-03:00", started: "2026-03-13T00:05:00-03:00", finished: "2026-03-13T01:00:00-03:00" });
  // K7 t6 c2 open now, Bruna: wait 30
  const t6 = await ticket(T, c2, "open", false);
  await cycle(T, t6, { user: bruna, ativo: false, queued: "2026-03-12T10:00:00-03:00", started: "2026-03-12T10:30:00-03:00" });
  // K8 t7 c3 pending now, tag X
  const t7 = await ticket(T, c3, "pending", false, [tagX]);
  await cycle(T, t7, { user: null, ativo: false, queued: "2026-03-12T16:00:00-03:00" });
  // K9 t8 c5 paused now, from the first of the month
  const t8 = await ticket(T, c5, "paused", false);
  await cycle(T, t8, { user: U, ativo: false, queued: "2026-03-01T10:00:00-03:00", started: "2026-03-01T10:05:00-03:00" });
  // today: two cycles in the 00h slot and one at 13h (on closed tickets, so the load stays as above)
  await cycle(T, t1, { user: U, ativo: false, queued: todayAt("America/Sao_Paulo", "00", "30") });
  await cycle(T, t2, { user: U, ativo: false, queued: todayAt("America/Sao_Paulo", "00", "45") });
  await cycle(T, t3, { user: U, ativo: false, queued: todayAt("America/Sao_Paulo", "13", "10") });

  // the other company, in Tokyo (UTC+9): one cycle finished on its 11 March, one on its 10 March
  await app.sql.exec("UPDATE companies SET time_zone = 'Asia/Tokyo' WHERE id = $1", [other.companyId]);
  const o1 = await contact(other.companyId, "2026-03-10T16:00:00Z");
  const ot = await ticket(other.companyId, o1, "pending", false);
  await cycle(other.companyId, ot, { user: other.admin.id, ativo: false, queued: "2026-03-10T15:00:00Z", started: "2026-03-10T15:30:00Z", finished: "2026-03-10T16:00:00Z" });
  await cycle(other.companyId, ot, { user: other.admin.id, ativo: true, queued: "2026-03-10T14:00:00Z", started: "2026-03-10T14:00:00Z", finished: "2026-03-10T14:30:00Z" });
  await cycle(other.companyId, ot, { user: null, ativo: false, queued: todayAt("Asia/Tokyo", "01", "15") });
});
afterAll(async () => {
  await app.close();
});

const attendant = (body: { attendants: { id: number }[] }, id: number) => body.attendants.find((a) => a.id === id);

describe("GET /dashboard: who may ask", () => {
  it("refuses no session (401), a user and a supervisor (403)", async () => {
    expect((await get(undefined, RANGE)).statusCode).toBe(401);
    for (const token of [t.user.token, t.supervisor.token]) {
      const res = await get(token, RANGE);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }
  });

  it("refuses bad input with ERR_VALIDATION, never a 500", async () => {
    for (const q of [
      "?date_from=2026-13-01&date_to=2026-13-02",
      "?date_from=2026-02-30&date_to=2026-03-01",
      "?date_from=2026-03-10",
      "?date_to=2026-03-10",
      "?date_from=2026-03-12&date_to=2026-03-10",
      "?date_from=2024-01-01&date_to=2026-01-01",
      "?days=0",
      "?days=abc",
      "?days=367",
      "?days=3&date_from=2026-03-10&date_to=2026-03-12",
      "?idTags=abc",
      "?idTags=[1,%22x%22]",
      "?idTags=[1",
      "?idTags=-1",
      "?date_from=10/03/2026&date_to=12/03/2026",
    ]) {
      const res = await get(t.admin.token, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error, q).toBe("ERR_VALIDATION");
    }
  });
});

describe("GET /dashboard: figures", () => {
  it("counts the range by hand (São Paulo days)", async () => {
    const res = await get(t.admin.token, RANGE);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.counters).toEqual({
      supportPending: 1, // t7
      supportHappening: 2, // t6 open, t8 paused
      supportFinished: 5, // K1, K2, K3, K4 (started before the range), K5; not K6 (finished after it)
      leads: 2, // c1, c2
      avgSupportTime: 51, // (30 + 60 + 60 + 60 + 45) / 5
      avgWaitTime: 20, // (K1 10 + K3 20 + K7 30) / 3; K2 and K5 never waited, K4 and K6 accepted outside
    });
    expect(body.range).toEqual({ dateFrom: "2026-03-10", dateTo: "2026-03-12", timeZone: "America/Sao_Paulo" });
    expect(attendant(body, t.user.id)).toEqual({ id: t.user.id, name: "Agent", tickets: 2, count_ativo: 1, count_receptivo: 1, avgSupportTime: 45, online: false });
    expect(attendant(body, t.admin.id)).toMatchObject({ tickets: 1, count_ativo: 0, count_receptivo: 1, avgSupportTime: 52.5 });
    expect(attendant(body, bruna)).toMatchObject({ name: "Bruna", tickets: 2, count_ativo: 0, count_receptivo: 2, avgSupportTime: 60 });
    expect(attendant(body, t.supervisor.id)).toMatchObject({ tickets: 0, count_ativo: 0, count_receptivo: 0, avgSupportTime: 0 });
    expect(body.attendants).toHaveLength(4);
    // tags: cycles that entered in the range: X K1, K5, K8 (K4 entered before); Y K3, K6
    expect(body.tags).toEqual([
      { id: tagY, name: "Reclamação", color: "#00ff00", tickets: 2 },
      { id: tagX, name: "Vip", color: "#ff0000", tickets: 3 },
    ]);
  });

  it("filters by tag, whichever way idTags is written", async () => {
    for (const q of [`&idTags=${tagX}`, `&idTags=[${tagX}]`, `&idTags=%5B${tagX}%5D`]) {
      const body = (await get(t.admin.token, RANGE + q)).json();
      expect(body.counters, q).toEqual({
        supportPending: 1, // t7
        supportHappening: 0,
        supportFinished: 3, // K1, K4, K5
        leads: 1, // c1 (t1, t4); c2's tickets carry no tag
        avgSupportTime: 45, // (30 + 60 + 45) / 3
        avgWaitTime: 10, // K1
      });
      expect(attendant(body, t.user.id), q).toMatchObject({ tickets: 1, count_receptivo: 1, avgSupportTime: 30 });
      expect(attendant(body, bruna), q).toMatchObject({ tickets: 0, avgSupportTime: 0 });
    }
    for (const q of [`&idTags=${tagX},${tagY}`, `&idTags=[${tagX},${tagY}]`, `&idTags=${tagX}&idTags=${tagY}`]) {
      const body = (await get(t.admin.token, RANGE + q)).json();
      expect(body.counters, q).toMatchObject({ supportFinished: 4, avgSupportTime: 48.8, avgWaitTime: 15 }); // K1, K3, K4, K5: 195 / 4 = 48.75; waits K1 10, K3 20
    }
  });

  it("reads days in the company's zone: an edge instant belongs to the local day", async () => {
    // 2026-03-11 in São Paulo is [03-11T03:00Z, 03-12T03:00Z): only K2, K3
    const sp = (await get(t.admin.token, "?date_from=2026-03-11&date_to=2026-03-11")).json();
    expect(sp.counters).toMatchObject({ supportFinished: 2, avgSupportTime: 60 });
    // Tokyo's 11 March is [03-10T15:00Z, 03-11T15:00Z): the cycle finished at 16:00Z, not the one at 14:30Z
    const tokyo = (await get(other.admin.token, "?date_from=2026-03-11&date_to=2026-03-11")).json();
    expect(tokyo.counters).toEqual({ supportPending: 1, supportHappening: 0, supportFinished: 1, leads: 1, avgSupportTime: 30, avgWaitTime: 30 });
    expect(tokyo.range.timeZone).toBe("Asia/Tokyo");
    const tokyo10 = (await get(other.admin.token, "?date_from=2026-03-10&date_to=2026-03-10")).json();
    expect(tokyo10.counters).toMatchObject({ supportFinished: 1, leads: 0, avgSupportTime: 30, avgWaitTime: 0 });
    expect(attendant(tokyo10, other.admin.id)).toMatchObject({ tickets: 1, count_ativo: 1, count_receptivo: 0 });
  });

  it("keeps each company to its own rows", async () => {
    const body = (await get(other.admin.token, RANGE)).json();
    expect(body.counters).toMatchObject({ supportPending: 1, supportHappening: 0, supportFinished: 2, leads: 1 });
    expect(body.attendants.map((a: { id: number }) => a.id).sort()).toEqual([other.admin.id, other.supervisor.id, other.user.id].sort());
    expect(body.tags).toEqual([]);
    // another company's tag filters everything out rather than reaching its tickets
    const foreign = (await get(other.admin.token, `${RANGE}&idTags=${tagX}`)).json();
    expect(foreign.counters).toMatchObject({ supportPending: 0, supportFinished: 0, leads: 0 });
  });

  it("charts today's cycles in 24 hourly slots of the company's clock", async () => {
    const sp = (await get(t.admin.token, RANGE)).json();
    expect(sp.hourly).toHaveLength(24);
    const slots = (h: { hour: number; tickets: number }[]) => Object.fromEntries(h.filter((x) => x.tickets > 0).map((x) => [x.hour, x.tickets]));
    expect(slots(sp.hourly)).toEqual({ 0: 2, 13: 1 });
    expect(sp.hourly.map((h: { hour: number }) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(slots((await get(other.admin.token, RANGE)).json().hourly)).toEqual({ 1: 1 });
    // the tag filter applies to the chart too (today's cycles are on t1 (X), t2, t3 (Y))
    expect(slots((await get(t.admin.token, `${RANGE}&idTags=${tagX}`)).json().hourly)).toEqual({ 0: 1 });
  });

  it("days and the default range end today in the company's zone", async () => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
    const body = (await get(t.admin.token, "?days=3")).json();
    expect(body.range.dateTo).toBe(today);
    expect((Date.parse(body.range.dateTo) - Date.parse(body.range.dateFrom)) / 86_400_000).toBe(2);
    const month = (await get(t.admin.token)).json();
    expect(month.range).toEqual({ dateFrom: `${today.slice(0, 8)}01`, dateTo: today, timeZone: "America/Sao_Paulo" });
  });

  it("shows an agent online while a socket is connected and seen lately", async () => {
    await app.sql.exec("UPDATE users SET online = true, last_seen_at = now() - interval '4 minutes' WHERE id = $1", [bruna]);
    await app.sql.exec("UPDATE users SET online = false, last_seen_at = now() - interval '2 minutes' WHERE id = $1", [t.supervisor.id]);
    // a flag left by a crashed process: connected, but not seen for 20 minutes
    await app.sql.exec("UPDATE users SET online = true, last_seen_at = now() - interval '20 minutes' WHERE id = $1", [t.user.id]);
    const body = (await get(t.admin.token, RANGE)).json();
    expect(attendant(body, bruna)!).toMatchObject({ online: true });
    // closed the app 2 minutes ago: offline at once (isOnline, the users page's rule too)
    expect(attendant(body, t.supervisor.id)!).toMatchObject({ online: false });
    expect(attendant(body, t.user.id)!).toMatchObject({ online: false });
  });
});
