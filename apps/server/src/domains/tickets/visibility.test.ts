import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCompany, buildQueue, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { setSetting } from "../../channels/testing.js";
import { loadActor } from "../../core/actor.js";
import {
  canSeeInHistoryRow,
  canSeeTicketRow,
  conversationOpenedBy,
  historyVisibilityFor,
  historyVisibilitySql,
  visibilityFor,
  visibilitySql,
  type VisibleTicketRow,
} from "./visibility.js";

/**
 * The list queries' SQL form of the visibility rule agrees with the pure rule (packages/shared
 * canSeeTicket) on every ticket of a table of cases, for every kind of viewer, with the show-all
 * switch on and off and restrictSystemQueuesVisibility on and off.
 */
let app: TestApp;
let companyId: number;
const queueCasesForHistory: [string, number | null, number | null][] = [];
const viewers: Record<string, number> = {};
const emails: Record<string, string> = {};
const tickets: (VisibleTicketRow & { id: number; label: string })[] = [];

beforeAll(async () => {
  app = await createTestApp();
  companyId = await buildCompany(app.sql);
  const a = await buildQueue(app.sql, companyId, { name: "Vendas" });
  const b = await buildQueue(app.sql, companyId, { name: "Suporte" });
  const bot = await buildQueue(app.sql, companyId, { name: "BOT" });
  const aro = await buildQueue(app.sql, companyId, { name: "ARO" });
  const make = async (profile: "admin" | "supervisor" | "user", queueIds: number[], allTicket: "enable" | "disable" = "disable", isSuper = false) => {
    const u = await buildUser(app.sql, companyId, { profile, queueIds, allTicket, super: isSuper });
    emails[u.id] = u.email;
    return u.id;
  };
  Object.assign(viewers, {
    admin: await make("admin", []),
    adminInB: await make("admin", [b]),
    superUser: await make("user", [], "disable", true),
    supervisor: await make("supervisor", []),
    supervisorB: await make("supervisor", [b], "enable"),
    userA: await make("user", [a]),
    allTicket: await make("user", [], "enable"),
    botAndB: await make("user", [bot, b]),
    botOnly: await make("user", [bot, aro], "enable"),
  });
  const queueCases: [string, number | null, number | null][] = [
    ["none", null, null],
    ["A", a, null],
    ["B", b, null],
    ["BOT", bot, null],
    ["BOT→B", bot, b],
    ["BOT→A", bot, a],
    ["ARO→A", aro, a],
    ["A→B", a, b],
  ];
  for (const status of ["pending", "open", "paused", "closed"] as const) {
    for (const [q, queueId, transferQueueId] of queueCases) {
      for (const [u, userId] of [
        ["nobody", null],
        ["userA", viewers.userA!],
        ["botOnly", viewers.botOnly!],
      ] as const) {
        // one contact per ticket: a contact has at most one active ticket per connection
        const contact = await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, 'C', $2) RETURNING id", [
          companyId,
          `5511${9000000 + tickets.length}`,
        ]);
        const row = await app.sql.one<{ id: number }>(
          "INSERT INTO tickets (company_id, contact_id, status, queue_id, transfer_queue_id, user_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
          [companyId, contact.id, status, queueId, transferQueueId, userId],
        );
        tickets.push({ id: row.id, label: `${status}/${q}/${u}`, status, queue_id: queueId, transfer_queue_id: transferQueueId, user_id: userId });
      }
    }
  }
  queueCasesForHistory.push(...queueCases);
});
afterAll(async () => {
  await app.close();
});

async function bothForms(name: string, showAll: boolean) {
  const actor = (await loadActor(app.sql, viewers[name]!, companyId))!;
  const v = await visibilityFor(app.sql, actor);
  const params: unknown[] = [companyId];
  const rows = await app.sql.many<{ id: number }>(`SELECT t.id FROM tickets t WHERE t.company_id = $1 AND ${visibilitySql(v, params, showAll)} ORDER BY t.id`, params);
  const bySql = rows.map((r) => tickets.find((t) => t.id === r.id)!.label);
  const byRule = tickets.filter((t) => canSeeTicketRow(v, t, showAll)).map((t) => t.label);
  return { bySql, byRule };
}

describe("visibility: SQL and the shared rule agree", () => {
  for (const restrict of ["disabled", "enabled"]) {
    for (const showAll of [true, false]) {
      it(`restrictSystemQueuesVisibility ${restrict}, showAll ${showAll}`, async () => {
        await setSetting(app, companyId, "restrictSystemQueuesVisibility", restrict);
        for (const name of Object.keys(viewers)) {
          const { bySql, byRule } = await bothForms(name, showAll);
          expect({ name, labels: bySql }).toEqual({ name, labels: byRule });
        }
      });
    }
  }

  it("a plain user with the restriction on sees, beyond their own, their queue's tickets and none of another queue (literal)", async () => {
    await setSetting(app, companyId, "restrictSystemQueuesVisibility", "enabled");
    const { bySql } = await bothForms("userA", false);
    const notMine = bySql.filter((l) => !l.endsWith("/userA"));
    expect(notMine).toEqual(
      ["pending", "open", "paused", "closed"].flatMap((s) => [`${s}/A/nobody`, `${s}/A/botOnly`, `${s}/A→B/nobody`, `${s}/A→B/botOnly`]),
    );
    const botView = (await bothForms("botOnly", true)).bySql.filter((l) => !l.endsWith("/botOnly"));
    // BOT and ARO tickets whose transfer queue it is not in are hidden; queue-less pending ones show (allTicket)
    expect(botView).toEqual(
      ["pending", "open", "paused", "closed"].flatMap((s) => [...(s === "pending" ? ["pending/none/nobody", "pending/none/userA"] : []), `${s}/BOT/nobody`, `${s}/BOT/userA`]),
    );
  });
});

/**
 * The history path (GET /messages/{ticketId}, media, notes by contact) keeps to the shared history rule
 * canSeeInHistory: for every viewer, with restrictSystemQueuesVisibility and shareContactHistory on and
 * off, what the REST routes give equals what the rule says, message by message, and the history SQL
 * agrees with the rule on every ticket.
 */
describe("visibility: the contact's history agrees with the shared rule", () => {
  interface HistoryTicket extends VisibleTicketRow {
    id: number;
    label: string;
    messageIds: number[];
    noteId: number;
  }
  /** Contact "full": one closed ticket per queue case and assignee, plus a closed ticket of each viewer; contact "strangers": the same cases without the viewers' own tickets, plus a queue-less pending one. */
  const conversations: { contactId: number; tickets: HistoryTicket[] }[] = [];
  let whatsappId = 0;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    whatsappId = (
      await app.sql.one<{ id: number }>("INSERT INTO whatsapps (company_id, name, provider, status) VALUES ($1, 'Histórico', 'sandbox', 'CONNECTED') RETURNING id", [companyId])
    ).id;
    for (const name of Object.keys(viewers)) tokens[name] = await app.login(emails[viewers[name]!]!);
    for (const kind of ["full", "strangers"] as const) {
      const contactId = (
        await app.sql.one<{ id: number }>("INSERT INTO contacts (company_id, name, number) VALUES ($1, $2, $3) RETURNING id", [companyId, kind, kind === "full" ? "5511988880001" : "5511988880002"])
      ).id;
      const cases: { label: string; status: "closed" | "pending"; queueId: number | null; transferQueueId: number | null; userId: number | null }[] = [];
      for (const [q, queueId, transferQueueId] of queueCasesForHistory) {
        for (const [u, userId] of [["nobody", null], ["userA", viewers.userA!], ["botOnly", viewers.botOnly!]] as const) {
          cases.push({ label: `closed/${q}/${u}`, status: "closed", queueId, transferQueueId, userId });
        }
      }
      if (kind === "full") for (const [name, id] of Object.entries(viewers)) cases.push({ label: `closed/none/${name}`, status: "closed", queueId: null, transferQueueId: null, userId: id });
      else cases.push({ label: "pending/none/nobody", status: "pending", queueId: null, transferQueueId: null, userId: null });
      // interleave: the tickets' messages alternate, so hidden runs fall between visible messages
      const list: HistoryTicket[] = [];
      for (const c of cases) {
        const row = await app.sql.one<{ id: number }>(
          "INSERT INTO tickets (company_id, contact_id, whatsapp_id, status, queue_id, transfer_queue_id, user_id) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
          [companyId, contactId, whatsappId, c.status, c.queueId, c.transferQueueId, c.userId],
        );
        const note = await app.sql.one<{ id: number }>("INSERT INTO ticket_notes (company_id, ticket_id, contact_id, note) VALUES ($1, $2, $3, $4) RETURNING id", [
          companyId,
          row.id,
          contactId,
          c.label,
        ]);
        list.push({ id: row.id, label: c.label, status: c.status, queue_id: c.queueId, transfer_queue_id: c.transferQueueId, user_id: c.userId, messageIds: [], noteId: note.id });
      }
      for (let round = 0; round < 2; round++) {
        for (const tk of list) {
          // a media path whose file is absent: an allowed download answers 404, a refused one 403
          const m = await app.sql.one<{ id: string }>(
            `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, media_type, media_path, ack, read)
             VALUES ($1, $2, $3, $4, $5, false, 'image', 'absent/file.png', 0, true) RETURNING id`,
            [companyId, tk.id, contactId, whatsappId, `${tk.label} #${round}`],
          );
          tk.messageIds.push(Number(m.id));
        }
      }
      conversations.push({ contactId, tickets: list });
    }
  });

  async function restHistory(token: string, anchor: number) {
    const ids: number[] = [];
    let hiddenCount = 0;
    for (let page = 1; ; page++) {
      const res = (await app.api("GET", `/api/messages/${anchor}?pageNumber=${page}`, { token })).json();
      ids.push(...res.messages.map((m: { id: number }) => m.id));
      hiddenCount += res.hidden.reduce((n: number, r: { count: number }) => n + r.count, 0);
      if (!res.hasMore) break;
    }
    return { ids, hiddenCount };
  }

  for (const restrict of ["disabled", "enabled"]) {
    for (const share of ["disabled", "enabled"]) {
      it(`restrictSystemQueuesVisibility ${restrict}, shareContactHistory ${share}: messages, media and notes`, async () => {
        await setSetting(app, companyId, "restrictSystemQueuesVisibility", restrict);
        await setSetting(app, companyId, "shareContactHistory", share);
        for (const name of Object.keys(viewers)) {
          const actor = (await loadActor(app.sql, viewers[name]!, companyId))!;
          const h = await historyVisibilityFor(app.sql, actor);
          for (const conv of conversations) {
            const opens = conv.tickets.some((tk) => canSeeTicketRow(h, tk));
            expect(await conversationOpenedBy(app.sql, h, conv.contactId, whatsappId)).toBe(opens);
            const byRule = conv.tickets.filter((tk) => canSeeInHistoryRow(h, tk, opens));
            // the SQL form over the conversation's tickets
            const params: unknown[] = [companyId, conv.contactId];
            const sqlRows = await app.sql.many<{ id: number }>(
              `SELECT t.id FROM tickets t WHERE t.company_id = $1 AND t.contact_id = $2 AND ${historyVisibilitySql(h, params, { contactId: "t.contact_id", whatsappId: "t.whatsapp_id" })} ORDER BY t.id`,
              params,
            );
            expect({ name, labels: sqlRows.map((r) => conv.tickets.find((tk) => tk.id === r.id)!.label) }).toEqual({ name, labels: byRule.map((tk) => tk.label) });
            // GET /messages through a ticket the viewer may open: every page, no repeats
            const expected = byRule.flatMap((tk) => tk.messageIds).sort((a, b) => a - b);
            const all = conv.tickets.flatMap((tk) => tk.messageIds).length;
            const anchor = conv.tickets.find((tk) => canSeeTicketRow(h, tk));
            if (anchor) {
              const rest = await restHistory(tokens[name]!, anchor.id);
              expect({ name, conv: conv.contactId, ids: rest.ids.slice().sort((a, b) => a - b) }).toEqual({ name, conv: conv.contactId, ids: expected });
              expect(new Set(rest.ids).size).toBe(rest.ids.length);
              expect(rest.hiddenCount).toBe(all - expected.length);
            } else {
              expect(expected).toEqual([]);
            }
            // media: refused (403) exactly where the rule hides the message
            for (const tk of conv.tickets) {
              const status = (await app.api("GET", `/api/messages/media/${tk.messageIds[0]}`, { token: tokens[name]! })).statusCode;
              expect({ name, ticket: tk.label, status }).toEqual({ name, ticket: tk.label, status: byRule.includes(tk) ? 404 : 403 });
            }
            // notes listed by contact
            const notes = (await app.api("GET", `/api/ticket-notes/list?contactId=${conv.contactId}`, { token: tokens[name]! })).json() as { id: number }[];
            expect({ name, notes: notes.map((n) => n.id).sort((a, b) => a - b) }).toEqual({ name, notes: byRule.map((tk) => tk.noteId).sort((a, b) => a - b) });
          }
        }
      });
    }
  }

  it("a plain user of queue A, sharing off, reads in the full conversation only its own tickets and queue A's (literal)", async () => {
    await setSetting(app, companyId, "restrictSystemQueuesVisibility", "disabled");
    await setSetting(app, companyId, "shareContactHistory", "disabled");
    const full = conversations[0]!;
    const anchor = full.tickets.find((tk) => tk.label === "closed/none/userA")!;
    const rest = await restHistory(tokens.userA!, anchor.id);
    const labels = [...new Set(rest.ids.map((id) => full.tickets.find((tk) => tk.messageIds.includes(id))!.label))].sort();
    expect(labels).toEqual(["closed/A/botOnly", "closed/A/nobody", "closed/A/userA", "closed/A→B/botOnly", "closed/A→B/nobody", "closed/A→B/userA", "closed/B/userA", "closed/BOT/userA", "closed/BOT→A/userA", "closed/BOT→B/userA", "closed/none/userA", "closed/ARO→A/userA"].sort());
    await setSetting(app, companyId, "shareContactHistory", "enabled");
    expect((await restHistory(tokens.userA!, anchor.id)).ids).toHaveLength(full.tickets.length * 2);
    await setSetting(app, companyId, "shareContactHistory", "disabled");
  });
});
