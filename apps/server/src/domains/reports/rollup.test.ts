import type { ReportDimension, ReportFilters } from "@atende/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTenant, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { buildQueue } from "../../../test/factories.js";
import * as dashRepo from "../dashboard/repository.js";
import * as dashRollup from "../dashboard/rollup.js";
import { addDays } from "../dashboard/date-range.js";
import { zonedLocalToDate } from "@atende/shared";
import * as repo from "./repository.js";
import { histogramPercentile } from "./rollup.js";

/**
 * The daily roll-up (migration 0410) against the live queries on the cycles, on randomised data:
 * instants spread over nine days with many near local midnights, cycles without some events, late
 * ratings and closes (events days after the cycle began), transfers and reopenings through the
 * tickets' own triggers, deleted cycles and contacts, and the company's time zone changed between
 * rounds (the roll-up rebuilt). Company A's durations are whole seconds under a minute, whole minutes
 * under a day and whole hours beyond: every answer must be identical. Company B's durations carry
 * microseconds: counts, averages and CSAT identical, medians and p90 at most one bucket below.
 */

let app: TestApp;
// a fixed seed, so a failure can be replayed
let state = 20261125;
function random(): number {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
}
const pick = <T,>(list: T[]): T => list[Math.floor(random() * list.length)]!;

const BASE = Date.parse("2026-03-05T00:00:00Z"); // New York moves its clocks on 2026-03-08
const DAYS = 9;
const ZONES = ["America/Sao_Paulo", "Asia/Tokyo", "America/New_York", "Asia/Kathmandu", "Pacific/Chatham"];

interface Company {
  id: number;
  aligned: boolean;
  users: number[];
  queues: number[];
  conns: number[];
  tags: number[];
  tickets: number[];
}
const companies: Company[] = [];

/** An instant in the window, one in three within 20 minutes of some zone's midnight. */
function instant(): number {
  if (random() < 0.35) {
    const day = BASE + Math.floor(random() * DAYS) * 86_400_000;
    const offsetHours = pick([3, -9, 5, -5.75, -13.75, 4]); // midnight of the zones above, in UTC
    return day + offsetHours * 3_600_000 + (random() - 0.5) * 40 * 60_000;
  }
  return BASE - 86_400_000 + random() * (DAYS + 1) * 86_400_000;
}

/** A duration in ms: whole units for the aligned company, anything for the other. */
function duration(aligned: boolean): number {
  const kind = random();
  if (aligned) {
    if (kind < 0.3) return Math.floor(random() * 60) * 1000;
    if (kind < 0.85) return (1 + Math.floor(random() * 1439)) * 60_000;
    return (24 + Math.floor(random() * 72)) * 3_600_000;
  }
  if (kind < 0.3) return random() * 60_000;
  if (kind < 0.85) return random() * 86_400_000;
  return 86_400_000 + random() * 3 * 86_400_000;
}

const iso = (ms: number) => new Date(ms).toISOString();
const maybe = <T,>(p: number, v: () => T): T | null => (random() < p ? v() : null);

async function insertCycle(c: Company, ticketId: number) {
  const queued = instant();
  const started = maybe(0.8, () => queued + (random() < 0.2 ? 0 : duration(c.aligned)));
  const first = maybe(0.7, () => queued + duration(c.aligned));
  const finished = maybe(0.6, () => queued + duration(c.aligned));
  const rated = finished !== null ? maybe(0.5, () => finished + duration(c.aligned)) : null;
  await app.sql.exec(
    `INSERT INTO ticket_traking (company_id, ticket_id, user_id, queue_id, whatsapp_id, origin_from_me, queued_at, started_at, first_response_at,
                                 finished_at, rated_at, rating)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      c.id,
      ticketId,
      maybe(0.85, () => pick(c.users)),
      maybe(0.8, () => pick(c.queues)),
      maybe(0.9, () => pick(c.conns)),
      random() < 0.3,
      iso(queued),
      started === null ? null : iso(started),
      first === null ? null : iso(first),
      finished === null ? null : iso(finished),
      rated === null ? null : iso(rated),
      rated === null ? null : 1 + Math.floor(random() * 5),
    ],
  );
}

/** Puts a random tag on a random ticket (nothing when it has it already). */
async function tag(c: Company) {
  await app.sql.exec(
    `INSERT INTO ticket_tags (company_id, ticket_id, tag_id) SELECT $1, t.id, $3 FROM tickets t WHERE t.company_id = $1 AND t.id = $2
     ON CONFLICT DO NOTHING`,
    [c.id, pick(c.tickets), pick(c.tags)],
  );
}

async function setUp(aligned: boolean): Promise<Company> {
  const t = await buildTenant(app);
  const id = t.companyId;
  const users = [t.admin.id, t.user.id];
  for (let i = 0; i < 2; i++) users.push((await buildUser(app.sql, id, { profile: "user", name: `Agente ${i}` })).id);
  const queues = [await buildQueue(app.sql, id, { name: "Vendas" }), await buildQueue(app.sql, id, { name: "Suporte" })];
  const conns: number[] = [];
  for (const name of ["Loja", "Oficina"]) conns.push((await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name) VALUES ($1, $2) RETURNING id", [id, name])).id);
  const tags: number[] = [];
  for (const [name, color] of [["Vip", "#ff0000"], ["Reclamação", "#00ff00"], ["Atacado", "#0000ff"]]) {
    tags.push((await app.sql.one<{ id: number }>("INSERT INTO tags (company_id, name, color) VALUES ($1, $2, $3) RETURNING id", [id, name, color])).id);
  }
  const c: Company = { id, aligned, users, queues, conns, tags, tickets: [] };
  for (let i = 0; i < 60; i++) {
    const contact = await app.sql.one<{ id: number }>(
      "INSERT INTO contacts (company_id, name, number, created_at, is_group) VALUES ($1, $2, $3, $4, $5) RETURNING id",
      [id, `Cliente ${i}`, `55219${id}${String(i).padStart(6, "0")}`, iso(instant()), random() < 0.1],
    );
    const ticket = await app.sql.one<{ id: number }>(
      "INSERT INTO tickets (company_id, contact_id, status, whatsapp_id) VALUES ($1, $2, 'closed', $3) RETURNING id",
      [id, contact.id, pick(conns)],
    );
    c.tickets.push(ticket.id);
  }
  // the cycles the tickets' trigger wrote are now-stamped: replaced by random ones
  await app.sql.exec("DELETE FROM ticket_traking WHERE company_id = $1", [id]);
  // tags put on before the tickets' cycles exist, and after (both triggers of migration 0412)
  for (let i = 0; i < 25; i++) await tag(c);
  for (let i = 0; i < 400; i++) await insertCycle(c, pick(c.tickets));
  for (let i = 0; i < 25; i++) await tag(c);
  return c;
}

/** Changes after the first reads: late events, moves, deletions, and the tickets' own triggers. */
async function churn(c: Company) {
  const ids = (await app.sql.many<{ id: number }>("SELECT id FROM ticket_traking WHERE company_id = $1 ORDER BY id", [c.id])).map((r) => r.id);
  for (let i = 0; i < 40; i++) {
    const id = pick(ids);
    const what = random();
    if (what < 0.25) {
      // a late rating (days after), or a changed one
      await app.sql.exec("UPDATE ticket_traking SET rated_at = queued_at + $2 * interval '1 millisecond', rating = $3 WHERE id = $1", [
        id,
        Math.floor(random() * 4) * 86_400_000 + duration(c.aligned),
        1 + Math.floor(random() * 5),
      ]);
    } else if (what < 0.45) {
      await app.sql.exec("UPDATE ticket_traking SET finished_at = queued_at + $2 * interval '1 millisecond' WHERE id = $1", [id, duration(c.aligned)]);
    } else if (what < 0.65) {
      await app.sql.exec("UPDATE ticket_traking SET user_id = $2, queue_id = $3, transfers = transfers + 1 WHERE id = $1", [id, pick(c.users), pick([...c.queues, null])]);
    } else if (what < 0.72) {
      await app.sql.exec("DELETE FROM ticket_traking WHERE id = $1", [id]);
    } else if (what < 0.8) {
      // a tag put on, or one taken off
      if (random() < 0.5) await tag(c);
      else await app.sql.exec("DELETE FROM ticket_tags WHERE (ticket_id, tag_id) IN (SELECT ticket_id, tag_id FROM ticket_tags WHERE company_id = $1 ORDER BY random() LIMIT 1)", [c.id]);
    } else {
      // through the tickets: reopen (a new now-stamped cycle), accept, transfer, close
      const ticket = pick(c.tickets);
      await app.sql.exec("UPDATE tickets SET status = 'open', user_id = $2 WHERE id = $1", [ticket, pick(c.users)]);
      await app.sql.exec("UPDATE tickets SET queue_id = $2 WHERE id = $1", [ticket, pick(c.queues)]);
      // most are closed again; some stay open, paused or back to pending (the current load)
      await app.sql.exec("UPDATE tickets SET status = $2 WHERE id = $1", [ticket, random() < 0.7 ? "closed" : pick(["open", "paused", "pending"])]);
    }
  }
  await app.sql.exec("DELETE FROM contacts WHERE id IN (SELECT id FROM contacts WHERE company_id = $1 ORDER BY id LIMIT 3)", [c.id]);
  await app.sql.exec("UPDATE contacts SET is_group = NOT is_group WHERE id IN (SELECT id FROM contacts WHERE company_id = $1 ORDER BY id DESC LIMIT 2)", [c.id]);
}

/** The ranges asked: each single day, three days, the whole window. */
function ranges(): { from: string; to: string }[] {
  const first = new Date(BASE - 86_400_000).toISOString().slice(0, 10);
  const out = [];
  for (let d = 0; d <= DAYS; d++) out.push({ from: addDays(first, d), to: addDays(first, d) });
  out.push({ from: addDays(first, 2), to: addDays(first, 4) }, { from: first, to: addDays(first, DAYS + 1) });
  return out;
}

function filterSets(c: Company): ReportFilters[] {
  return [
    {},
    { userId: c.users[1] },
    { queueId: "none" },
    { whatsappId: c.conns[0] },
    { origin: "ativo" },
    { origin: "receptivo" },
    // combined: the per-group histograms
    { userId: c.users[2], queueId: c.queues[0] },
    { userId: "none", origin: "receptivo", whatsappId: c.conns[1] },
    // a tag alone: the per-tag roll-up; with another filter: the tag sets' roll-up (0790)
    { tagId: c.tags[0] },
    { tagId: c.tags[1] },
    { tagId: c.tags[2], queueId: c.queues[1] },
    // the ticket's status now (0790), alone, with a tag, with one or two of the cycle's filters
    { status: "closed" },
    { status: "open" },
    { status: "pending", userId: c.users[1] },
    { status: "closed", tagId: c.tags[0] },
    { status: "closed", origin: "ativo", queueId: c.queues[0] },
    // the present with two or more of the cycle's filters: the present's per-group histograms (0792)
    { status: "closed", tagId: c.tags[1], userId: c.users[2], origin: "receptivo" },
    { tagId: c.tags[0], queueId: c.queues[0], whatsappId: c.conns[1] },
  ];
}

type Figures = Awaited<ReturnType<typeof repo.summary>>;
const MEDIANS = ["first_response_median", "first_response_p90", "resolution_median", "resolution_p90"] as const;

/** Rolled-up figures against live ones: identical, or (company B) medians within one bucket below. */
function sameFigures(rolled: Figures, live: Figures, aligned: boolean, where: string) {
  if (aligned) {
    expect(rolled, where).toEqual(live);
    return;
  }
  const withoutMedians = (f: Figures) => ({ ...f, ...Object.fromEntries(MEDIANS.map((k) => [k, f[k] === null ? null : 0])) });
  expect(withoutMedians(rolled), where).toEqual(withoutMedians(live));
  for (const k of MEDIANS) {
    const l = live[k];
    const r = rolled[k];
    if (l === null) continue;
    // each value is taken at most one bucket low (1 s, 1 min, 1 h); interpolating towards a value in a
    // wider tier adds at most that share of its width; plus 1 s for the two roundings
    const width = l < 86_400 ? 60 + 0.05 * l : 3600;
    expect(r, `${where} ${k}`).not.toBeNull();
    expect(r!, `${where} ${k}: ${r} vs live ${l}`).toBeLessThanOrEqual(l + 1);
    expect(r!, `${where} ${k}: ${r} vs live ${l}`).toBeGreaterThanOrEqual(l - width - 1);
  }
}

/** The dashboard's range figures read live on the cycles (the definition). */
async function liveRangeFigures(scope: dashRepo.Scope) {
  const [finished, wait, attendants] = await Promise.all([
    dashRepo.finishedCycles(app.sql, scope),
    dashRepo.waitTime(app.sql, scope),
    dashRepo.attendants(app.sql, scope),
  ]);
  return { ...finished, ...wait, attendants };
}

async function compareAll(c: Company, zone: string) {
  await dashRollup.compact(app.sql, c.id);
  for (const days of ranges()) {
    const start = zonedLocalToDate(`${days.from}T00:00`, zone);
    const end = zonedLocalToDate(`${addDays(days.to, 1)}T00:00`, zone);
    const label = `${c.aligned ? "A" : "B"} ${zone} ${days.from}..${days.to}`;
    // the dashboard
    const dash = { companyId: c.id, start, end, tags: null };
    expect(await dashRollup.currentLoad(app.sql, c.id), label).toEqual(await dashRepo.currentLoad(app.sql, c.id, null));
    expect(await dashRollup.rangeFigures(app.sql, c.id, days), label).toEqual(await liveRangeFigures(dash));
    expect(await dashRollup.leads(app.sql, c.id, days), label).toEqual(await dashRepo.leads(app.sql, dash));
    expect(await dashRollup.tagCounts(app.sql, c.id, days), label).toEqual(await dashRepo.tagCounts(app.sql, dash));
    // the dashboard under a tag filter: "any of these tags" through the tag sets (migration 0790)
    for (const tags of [[c.tags[0]!], [c.tags[0]!, c.tags[2]!], c.tags]) {
      const byTags = { ...dash, tags };
      const where = `${label} tags ${tags.join(",")}`;
      expect(await dashRollup.currentLoad(app.sql, c.id, tags), where).toEqual(await dashRepo.currentLoad(app.sql, c.id, tags));
      expect(await dashRollup.rangeFigures(app.sql, c.id, days, tags), where).toEqual(await liveRangeFigures(byTags));
      expect(await dashRollup.leads(app.sql, c.id, days, tags), where).toEqual(await dashRepo.leads(app.sql, byTags));
    }
    // the copies of the ticket's present the live reads filter on (filters.ts) against the tickets and their tags
    const drift = await app.sql.one<{ cycles: number; tickets: number }>(
      `SELECT (SELECT count(*) FROM ticket_traking tt JOIN tickets t ON t.id = tt.ticket_id
                WHERE tt.company_id = $1 AND (tt.ticket_status, tt.tagset_id) IS DISTINCT FROM (t.status, t.tagset_id))::int AS cycles,
              (SELECT count(*) FROM tickets t LEFT JOIN ticket_tagsets s ON s.company_id = t.company_id AND s.id = t.tagset_id
                WHERE t.company_id = $1
                  AND COALESCE(s.tag_ids, '{}') <> ARRAY(SELECT g.tag_id FROM ticket_tags g WHERE g.ticket_id = t.id ORDER BY g.tag_id))::int AS tickets`,
      [c.id],
    );
    expect(drift, `${label} copies of the ticket's present`).toEqual({ cycles: 0, tickets: 0 });
    // the reports
    for (const filters of filterSets(c)) {
      const s = { companyId: c.id, start, end, days, filters };
      const where = `${label} ${JSON.stringify(filters)}`;
      sameFigures(await repo.summary(app.sql, s), await repo.summary(app.sql, s, true), c.aligned, `summary ${where}`);
      const sortVolume = (rows: { kind: string; key: string; n: number }[]) => [...rows].sort((a, b) => `${a.kind}${a.key}`.localeCompare(`${b.kind}${b.key}`));
      expect(sortVolume(await repo.volume(app.sql, s, zone, "day")), `volume ${where}`).toEqual(sortVolume(await repo.volume(app.sql, s, zone, "day", true)));
      for (const metric of ["created", "resolved", "firstResponse", "csat"] as const) {
        const list = { ...s, metric };
        expect(await repo.countTickets(app.sql, list), `count ${metric} ${where}`).toEqual(await repo.countTickets(app.sql, list, true));
      }
      const csat4 = { ...s, metric: "csat" as const, rating: 4 };
      expect(await repo.countTickets(app.sql, csat4), `count csat 4 ${where}`).toEqual(await repo.countTickets(app.sql, csat4, true));
    }
    for (const by of ["agent", "queue", "connection", "tag"] as ReportDimension[]) {
      const s = { companyId: c.id, start, end, days, filters: {} };
      const rolled = await repo.breakdown(app.sql, s, by);
      const live = await repo.breakdown(app.sql, s, by, true);
      expect(rolled.map((r) => r.id), `breakdown ${by} ${label}`).toEqual(live.map((r) => r.id));
      rolled.forEach((r, i) => sameFigures(r, live[i]!, c.aligned, `breakdown ${by} ${label} row ${r.id}`));
    }
    // a breakdown with filters: the per-group histograms
    for (const [by, filters] of [
      ["agent", { queueId: c.queues[0] }],
      ["connection", { origin: "ativo", userId: c.users[1] }],
      ["queue", { userId: "none" }],
      ["agent", { status: "closed" }],
      ["queue", { status: "open", tagId: c.tags[1] }],
      ["connection", { tagId: c.tags[0], origin: "receptivo" }],
      ["tag", { status: "closed" }],
      // the present with a cycle filter, and the breakdown by tag with any filter (0792)
      ["agent", { status: "closed", queueId: c.queues[1] }],
      ["connection", { tagId: c.tags[2], userId: "none" }],
      ["tag", { queueId: c.queues[0] }],
      ["tag", { tagId: c.tags[0] }],
      ["tag", { userId: c.users[1], origin: "ativo" }],
      ["tag", { status: "open", whatsappId: c.conns[0] }],
    ] as [ReportDimension, ReportFilters][]) {
      const s = { companyId: c.id, start, end, days, filters };
      const rolled = await repo.breakdown(app.sql, s, by);
      const live = await repo.breakdown(app.sql, s, by, true);
      expect(rolled.map((r) => r.id), `breakdown ${by} ${JSON.stringify(filters)} ${label}`).toEqual(live.map((r) => r.id));
      rolled.forEach((r, i) => sameFigures(r, live[i]!, c.aligned, `breakdown ${by} ${JSON.stringify(filters)} ${label} row ${r.id}`));
    }
  }
}

beforeAll(async () => {
  app = await createTestApp();
  companies.push(await setUp(true), await setUp(false));
});
afterAll(async () => {
  await app.close();
});

describe("report roll-up", () => {
  it("answers as the live queries on random cycles, across day edges, late events and time zone changes", async () => {
    let round = 0;
    for (const zone of ZONES) {
      for (const c of companies) {
        await app.sql.exec("UPDATE companies SET time_zone = $2 WHERE id = $1", [c.id, zone]);
        await compareAll(c, zone);
        await churn(c);
        await compareAll(c, zone);
      }
      round++;
    }
    expect(round).toBe(ZONES.length);
    // the roll-up held something to compare: every company has cycles in most days
    const rows = await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_rollup WHERE company_id = ANY($1::int[])", [companies.map((c) => c.id)]);
    expect(rows.n).toBeGreaterThan(100);
  }, 240_000);

  it("keeps no delta after a read folds them in, and a rebuild gives the same rows", async () => {
    const c = companies[0]!;
    await dashRollup.compact(app.sql, c.id);
    expect((await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_rollup_delta WHERE company_id = $1", [c.id])).n).toBe(0);
    const snapshot = () =>
      app.sql.many(
        `SELECT day, user_id, queue_id, whatsapp_id, origin_from_me, created, started, waited, wait_sum, finished, support_n, support_sum, answered, rated, r1, r2, r3, r4, r5
           FROM ticket_rollup WHERE company_id = $1 AND (created, started, finished, answered, rated) <> (0, 0, 0, 0, 0)
          ORDER BY day, user_id, queue_id, whatsapp_id, origin_from_me`,
        [c.id],
      );
    const present = () =>
      app.sql.many(
        `SELECT day, ticket_status, tagset_id, user_id, queue_id, whatsapp_id, origin_from_me, created, started, waited, wait_sum, finished,
                support_n, support_sum, answered, rated, r1, r2, r3, r4, r5
           FROM ticket_rollup_present WHERE company_id = $1 AND (created, started, finished, answered, rated) <> (0, 0, 0, 0, 0)
          ORDER BY day, ticket_status, tagset_id, user_id, queue_id, whatsapp_id, origin_from_me`,
        [c.id],
      );
    const groups = () =>
      app.sql.many(
        `SELECT ticket_status, day, tagset_id, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n
           FROM ticket_rollup_present_group_hist WHERE company_id = $1 AND n <> 0
          ORDER BY ticket_status, day, tagset_id, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket`,
        [c.id],
      );
    // the status tables (0822) against the present tables summed over the tag sets
    const counts = "created, started, waited, wait_sum::float8, finished, support_n, support_sum::float8, answered, rated, r1, r2, r3, r4, r5";
    const summed = counts.replace(/(\w+)(::float8)?/g, (_, c: string, f?: string) => (f ? `sum(${c})::float8 AS ${c}` : `sum(${c})::int AS ${c}`));
    const statusTables = async () => ({
      counts: await app.sql.many(
        `SELECT day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me, ${counts} FROM ticket_rollup_status
          WHERE company_id = $1 AND (created, started, finished, answered, rated) <> (0, 0, 0, 0, 0)
          ORDER BY day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me`,
        [c.id],
      ),
      dims: await app.sql.many(
        `SELECT ticket_status, dim, day, metric, key, bucket, n FROM ticket_rollup_status_hist WHERE company_id = $1 AND n <> 0
          ORDER BY ticket_status, dim, day, metric, key, bucket`,
        [c.id],
      ),
      groups: await app.sql.many(
        `SELECT ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n FROM ticket_rollup_status_group_hist
          WHERE company_id = $1 AND n <> 0 ORDER BY ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket`,
        [c.id],
      ),
    });
    const presentOverSets = async () => ({
      counts: await app.sql.many(
        `SELECT day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me, ${summed} FROM ticket_rollup_present WHERE company_id = $1
          GROUP BY day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me
         HAVING (sum(created), sum(started), sum(finished), sum(answered), sum(rated)) <> (0, 0, 0, 0, 0)
          ORDER BY day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me`,
        [c.id],
      ),
      dims: await app.sql.many(
        `SELECT ticket_status, dim, day, metric, key, bucket, sum(n)::int AS n FROM ticket_rollup_present_hist WHERE company_id = $1
          GROUP BY ticket_status, dim, day, metric, key, bucket HAVING sum(n) <> 0 ORDER BY ticket_status, dim, day, metric, key, bucket`,
        [c.id],
      ),
      groups: await app.sql.many(
        `SELECT ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, sum(n)::int AS n FROM ticket_rollup_present_group_hist
          WHERE company_id = $1 GROUP BY ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket HAVING sum(n) <> 0
          ORDER BY ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket`,
        [c.id],
      ),
    });
    // the per-tag tables (0822) against the present tables with each set's tags unnested
    const unnest = "JOIN ticket_tagsets s ON s.company_id = p.company_id AND s.id = p.tagset_id CROSS JOIN LATERAL unnest(s.tag_ids) AS x(tag_id)";
    const tagTables = async () => ({
      counts: await app.sql.many(
        `SELECT tag_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me, ${counts} FROM ticket_rollup_present_tag
          WHERE company_id = $1 AND (created, started, finished, answered, rated) <> (0, 0, 0, 0, 0)
          ORDER BY tag_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me`,
        [c.id],
      ),
      dims: await app.sql.many(
        `SELECT tag_id, ticket_status, dim, day, metric, key, bucket, n FROM ticket_rollup_present_tag_hist WHERE company_id = $1 AND n <> 0
          ORDER BY tag_id, ticket_status, dim, day, metric, key, bucket`,
        [c.id],
      ),
      groups: await app.sql.many(
        `SELECT tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, n FROM ticket_rollup_present_tag_group_hist
          WHERE company_id = $1 AND n <> 0 ORDER BY tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket`,
        [c.id],
      ),
    });
    const presentPerTag = async () => ({
      counts: await app.sql.many(
        `SELECT x.tag_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me, ${summed} FROM ticket_rollup_present p ${unnest}
          WHERE p.company_id = $1 GROUP BY x.tag_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me
         HAVING (sum(created), sum(started), sum(finished), sum(answered), sum(rated)) <> (0, 0, 0, 0, 0)
          ORDER BY x.tag_id, day, ticket_status, user_id, queue_id, whatsapp_id, origin_from_me`,
        [c.id],
      ),
      dims: await app.sql.many(
        `SELECT x.tag_id, ticket_status, dim, day, metric, key, bucket, sum(n)::int AS n FROM ticket_rollup_present_hist p ${unnest}
          WHERE p.company_id = $1 GROUP BY x.tag_id, ticket_status, dim, day, metric, key, bucket HAVING sum(n) <> 0
          ORDER BY x.tag_id, ticket_status, dim, day, metric, key, bucket`,
        [c.id],
      ),
      groups: await app.sql.many(
        `SELECT x.tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket, sum(n)::int AS n
           FROM ticket_rollup_present_group_hist p ${unnest} WHERE p.company_id = $1
          GROUP BY x.tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket HAVING sum(n) <> 0
          ORDER BY x.tag_id, ticket_status, day, metric, user_id, queue_id, whatsapp_id, origin_from_me, bucket`,
        [c.id],
      ),
    });
    const tagBefore = await tagTables();
    expect(tagBefore.counts.length).toBeGreaterThan(0);
    expect(tagBefore.dims.length).toBeGreaterThan(0);
    expect(tagBefore.groups.length).toBeGreaterThan(0);
    expect(tagBefore).toEqual(await presentPerTag());
    const before = await snapshot();
    const presentBefore = await present();
    const groupsBefore = await groups();
    const statusBefore = await statusTables();
    expect(groupsBefore.length).toBeGreaterThan(0);
    expect(presentBefore.length).toBeGreaterThan(0);
    expect(statusBefore.counts.length).toBeGreaterThan(0);
    expect(statusBefore.dims.length).toBeGreaterThan(0);
    expect(statusBefore.groups.length).toBeGreaterThan(0);
    expect(statusBefore).toEqual(await presentOverSets());
    await app.sql.exec("SELECT ticket_rollup_rebuild($1)", [c.id]);
    expect(await snapshot()).toEqual(before);
    expect(await present()).toEqual(presentBefore);
    expect(await groups()).toEqual(groupsBefore);
    expect(await statusTables()).toEqual(statusBefore);
    expect(await tagTables()).toEqual(tagBefore);
  });

  it("folds every company's deltas in on the periodic sweep, without a read", async () => {
    for (const c of companies) {
      // a ticket still there (churn deleted some contacts and, with them, their tickets)
      const ticket = await app.sql.one<{ id: number }>("SELECT id FROM tickets WHERE company_id = $1 ORDER BY id DESC LIMIT 1", [c.id]);
      await insertCycle(c, ticket.id);
    }
    const pending = async () => (await app.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM ticket_rollup_delta")).n;
    expect(await pending()).toBeGreaterThan(0);
    const stop = dashRollup.startRollupSweep(app.sql, app.app.log, 50);
    try {
      for (let i = 0; i < 100 && (await pending()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      stop();
    }
    expect(await pending()).toBe(0);
  });

  it("takes percentile_cont of the buckets' lower bounds, rounding halves to even like PostgreSQL", () => {
    // 30, 120, 600, 4200 s: median 360, p90 600 + 0.7 × 3600 = 3120
    const b = [30, 120, 600, 4200].map((bucket) => ({ bucket, n: 1 }));
    expect(histogramPercentile(b, 0.5)).toBe(360);
    expect(histogramPercentile(b, 0.9)).toBe(3120);
    expect(histogramPercentile([{ bucket: 1, n: 1 }, { bucket: 2, n: 1 }], 0.5)).toBe(2); // 1.5 → 2
    expect(histogramPercentile([{ bucket: 2, n: 1 }, { bucket: 3, n: 1 }], 0.5)).toBe(2); // 2.5 → 2
    expect(histogramPercentile([{ bucket: 60, n: 3 }, { bucket: 120, n: 1 }], 0.9)).toBe(102); // 60 + 0.7 × 60
    expect(histogramPercentile([], 0.5)).toBeNull();
  });
});
