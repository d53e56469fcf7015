import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCompany, buildQueue, buildUser, createTestApp, type TestApp } from "../../../test/helper.js";
import { setSetting } from "../../channels/testing.js";
import { loadActor } from "../../core/actor.js";
import { canSeeTicketRow, visibilityFor, visibilitySql, type VisibleTicketRow } from "./visibility.js";

/**
 * The list queries' SQL form of the visibility rule agrees with the pure rule (packages/shared
 * canSeeTicket) on every ticket of a table of cases, for every kind of viewer, with the show-all
 * switch on and off and restrictSystemQueuesVisibility on and off.
 */
let app: TestApp;
let companyId: number;
const viewers: Record<string, number> = {};
const tickets: (VisibleTicketRow & { id: number; label: string })[] = [];

beforeAll(async () => {
  app = await createTestApp();
  companyId = await buildCompany(app.sql);
  const a = await buildQueue(app.sql, companyId, { name: "Vendas" });
  const b = await buildQueue(app.sql, companyId, { name: "Suporte" });
  const bot = await buildQueue(app.sql, companyId, { name: "BOT" });
  const aro = await buildQueue(app.sql, companyId, { name: "ARO" });
  const make = async (profile: "admin" | "supervisor" | "user", queueIds: number[], allTicket: "enable" | "disable" = "disable", isSuper = false) =>
    (await buildUser(app.sql, companyId, { profile, queueIds, allTicket, super: isSuper })).id;
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
