import { can, canSeeTicket, isAdmin, restrictedQueueIds, SYSTEM_QUEUE_NAMES, type TicketStatus, type TicketViewer } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { Sql } from "../../db/sql.js";
import { settingEnabled } from "./company-settings.js";

/**
 * Who sees which ticket: the rule is `canSeeTicket` in packages/shared (permissions/tickets.ts);
 * this file loads what it needs from the database and gives its SQL form for list queries.
 * visibility.test.ts checks that the SQL and the pure rule agree on a table of cases.
 */
export interface VisibilityContext {
  actor: RequestActor;
  isAdmin: boolean;
  canShowAll: boolean;
  /** Ids of the company's BOT/ARW/ARO queues when restrictSystemQueuesVisibility is on (empty for admins, whom it does not restrict). */
  restrictedQueueIds: number[];
}

/** The company's restricted system queues (empty when the setting is off). */
export async function companyRestrictedQueueIds(sql: Sql, companyId: number): Promise<number[]> {
  const enabled = await settingEnabled(sql, companyId, "restrictSystemQueuesVisibility");
  if (!enabled) return [];
  const queues = await sql.many<{ id: number; name: string }>("SELECT id, name FROM queues WHERE company_id = $1 AND name = ANY($2)", [
    companyId,
    [...SYSTEM_QUEUE_NAMES],
  ]);
  return restrictedQueueIds(enabled, queues);
}

export async function visibilityFor(sql: Sql, actor: RequestActor): Promise<VisibilityContext> {
  const admin = isAdmin(actor);
  const restricted = admin ? [] : await companyRestrictedQueueIds(sql, actor.companyId);
  return { actor, isAdmin: admin, canShowAll: can(actor, "tickets-manager:showall"), restrictedQueueIds: restricted };
}

export interface VisibleTicketRow {
  status: TicketStatus;
  user_id: number | null;
  queue_id: number | null;
  transfer_queue_id: number | null;
}

export function viewerOf(actor: RequestActor): TicketViewer {
  return { id: actor.id, profile: actor.profile, super: actor.super, queueIds: actor.queueIds, allTicket: actor.allTicket };
}

/** `canSeeTicket` over a ticket row; `showAll` true is the widest view (opening a single ticket). */
export function canSeeTicketRow(v: VisibilityContext, t: VisibleTicketRow, showAll = true): boolean {
  return canSeeTicket(
    viewerOf(v.actor),
    { status: t.status, userId: t.user_id, queueId: t.queue_id, transferQueueId: t.transfer_queue_id },
    { restrictedQueueIds: v.restrictedQueueIds, showAll },
  );
}

/**
 * The same rule as SQL over alias `t`; pushes its parameters onto `params`.
 */
export function visibilitySql(v: VisibilityContext, params: unknown[], showAll: boolean): string {
  if (v.isAdmin && showAll) return "TRUE";
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const me = p(v.actor.id);
  const parts: string[] = [];
  if (showAll && v.canShowAll) {
    parts.push("TRUE");
  } else {
    const queues = p(v.actor.queueIds);
    parts.push(`t.queue_id = ANY(${queues}::int[])`);
    if (v.actor.allTicket === "enable") parts.push("(t.queue_id IS NULL AND t.status = 'pending')");
  }
  let rule = `(${parts.join(" OR ")})`;
  if (v.restrictedQueueIds.length) {
    const restricted = p(v.restrictedQueueIds);
    const mine = p(v.actor.queueIds);
    rule = `(${rule} AND NOT (t.queue_id = ANY(${restricted}::int[]) AND t.transfer_queue_id IS NOT NULL AND NOT t.transfer_queue_id = ANY(${mine}::int[])))`;
  }
  return `(t.user_id = ${me} OR ${rule})`;
}
