import { can, SYSTEM_QUEUE_NAMES } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { Sql } from "../../db/sql.js";
import { settingEnabled } from "./company-settings.js";

/**
 * Who sees which ticket (1-core §5, §6):
 * - show all (supervisors and admins may switch it on): every ticket of the company;
 * - otherwise: tickets in the user's queues, tickets assigned to the user, and, with allTicket
 *   enabled, pending tickets without a queue;
 * - restrictSystemQueuesVisibility (non-admins): a ticket in a system queue (BOT, ARW, ARO) with a
 *   transfer queue is visible only to members of that transfer queue (or its assignee).
 * Single-ticket access (open, read messages, act) uses the widest view the user may switch on.
 */
export interface VisibilityContext {
  actor: RequestActor;
  isAdmin: boolean;
  canShowAll: boolean;
  /** Ids of the company's BOT/ARW/ARO queues when the restriction is on and applies to the actor. */
  restrictedQueueIds: number[];
}

export async function visibilityFor(sql: Sql, actor: RequestActor): Promise<VisibilityContext> {
  const isAdmin = actor.super || actor.profile === "admin";
  let restrictedQueueIds: number[] = [];
  if (!isAdmin && (await settingEnabled(sql, actor.companyId, "restrictSystemQueuesVisibility"))) {
    const rows = await sql.many<{ id: number }>("SELECT id FROM queues WHERE company_id = $1 AND name = ANY($2)", [
      actor.companyId,
      [...SYSTEM_QUEUE_NAMES],
    ]);
    restrictedQueueIds = rows.map((r) => r.id);
  }
  return { actor, isAdmin, canShowAll: can(actor, "tickets-manager:showall"), restrictedQueueIds };
}

export interface VisibleTicket {
  status: string;
  user_id: number | null;
  queue_id: number | null;
  transfer_queue_id: number | null;
}

export function canSeeTicket(v: VisibilityContext, t: VisibleTicket, showAll = true): boolean {
  if (v.isAdmin && showAll) return true;
  const { actor } = v;
  if (t.user_id === actor.id) return true;
  if (
    t.queue_id !== null &&
    v.restrictedQueueIds.includes(t.queue_id) &&
    t.transfer_queue_id !== null &&
    !actor.queueIds.includes(t.transfer_queue_id)
  ) {
    return false;
  }
  if (showAll && v.canShowAll) return true;
  if (t.queue_id !== null) return actor.queueIds.includes(t.queue_id);
  return t.status === "pending" && actor.allTicket === "enable";
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
