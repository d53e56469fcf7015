import { can, canSeeInHistory, canSeeTicket, isAdmin, restrictedQueueIds, SYSTEM_QUEUE_NAMES, type TicketStatus, type TicketViewer } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import type { RequestActor } from "../../core/actor.js";
import { AppError } from "../../core/errors.js";
import type { Sql } from "../../db/sql.js";
import { settingEnabled } from "./company-settings.js";
import * as repo from "./repository.js";
import type { TicketRow } from "./repository.js";

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
 * The same rule as SQL over the tickets alias `t` (or `alias`); pushes its parameters onto `params`.
 */
export function visibilitySql(v: VisibilityContext, params: unknown[], showAll: boolean, alias = "t"): string {
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
    parts.push(`${alias}.queue_id = ANY(${queues}::int[])`);
    if (v.actor.allTicket === "enable") parts.push(`(${alias}.queue_id IS NULL AND ${alias}.status = 'pending')`);
  }
  let rule = `(${parts.join(" OR ")})`;
  if (v.restrictedQueueIds.length) {
    const restricted = p(v.restrictedQueueIds);
    const mine = p(v.actor.queueIds);
    rule = `(${rule} AND NOT (${alias}.queue_id = ANY(${restricted}::int[]) AND ${alias}.transfer_queue_id IS NOT NULL AND NOT ${alias}.transfer_queue_id = ANY(${mine}::int[])))`;
  }
  return `(${alias}.user_id = ${me} OR ${rule})`;
}

/** What the history rule needs beyond the viewer: the company's shareContactHistory setting. */
export interface HistoryContext extends VisibilityContext {
  shareHistory: boolean;
}

export async function historyVisibilityFor(sql: Sql, actor: RequestActor): Promise<HistoryContext> {
  const v = await visibilityFor(sql, actor);
  return { ...v, shareHistory: await settingEnabled(sql, actor.companyId, "shareContactHistory") };
}

/**
 * `canSeeInHistory` (packages/shared) over the ticket an item belongs to; `opensConversation` says
 * whether the viewer may open a ticket of the item's conversation (see conversationOpenedBy).
 */
export function canSeeInHistoryRow(h: HistoryContext, owner: VisibleTicketRow, opensConversation: boolean): boolean {
  return canSeeInHistory(
    viewerOf(h.actor),
    { status: owner.status, userId: owner.user_id, queueId: owner.queue_id, transferQueueId: owner.transfer_queue_id },
    { restrictedQueueIds: h.restrictedQueueIds, shareHistory: h.shareHistory, opensConversation },
  );
}

/**
 * The history rule as SQL over the owning ticket's alias `t`: the viewer may open it or, with
 * shareContactHistory, may open a ticket of the item's conversation, whose contact and connection are
 * the SQL expressions `conversation.contactId` / `conversation.whatsappId` (a conversation without a
 * connection is its one ticket). Pushes its parameters onto `params`.
 */
export function historyVisibilitySql(h: HistoryContext, params: unknown[], conversation: { contactId: string; whatsappId: string }): string {
  const own = visibilitySql(h, params, true);
  if (!h.shareHistory) return own;
  const sibling = visibilitySql(h, params, true, "s");
  return `(${own} OR (${conversation.whatsappId} IS NOT NULL AND EXISTS (SELECT 1 FROM tickets s
    WHERE s.company_id = t.company_id AND s.contact_id = ${conversation.contactId} AND s.whatsapp_id = ${conversation.whatsappId} AND ${sibling})))`;
}

/** Whether the viewer may open a ticket of the contact's conversation on `whatsappId` (false without a connection). */
export async function conversationOpenedBy(sql: Sql, h: VisibilityContext, contactId: number, whatsappId: number | null): Promise<boolean> {
  if (whatsappId === null) return false;
  const params: unknown[] = [h.actor.companyId, contactId, whatsappId];
  const row = await sql.maybe<{ one: number }>(
    `SELECT 1 AS one FROM tickets t WHERE t.company_id = $1 AND t.contact_id = $2 AND t.whatsapp_id = $3 AND ${visibilitySql(h, params, true)} LIMIT 1`,
    params,
  );
  return row !== null;
}

/**
 * The history rule for one item (a message's media, a ticket's notes) of `owner`, whose conversation
 * is the contact on `whatsappId`: whether this user may read it.
 */
export async function mayReadInHistory(sql: Sql, actor: RequestActor, owner: VisibleTicketRow, conversation: { contactId: number; whatsappId: number | null }): Promise<boolean> {
  const h = await historyVisibilityFor(sql, actor);
  if (canSeeInHistoryRow(h, owner, false)) return true;
  if (!h.shareHistory) return false;
  return canSeeInHistoryRow(h, owner, await conversationOpenedBy(sql, h, conversation.contactId, conversation.whatsappId));
}

/** The ticket by id when the actor may see it (ERR_NO_TICKET_FOUND, ERR_NO_PERMISSION otherwise). */
export async function loadVisibleTicket(ctx: AppContext, actor: RequestActor, id: number): Promise<TicketRow> {
  const row = await repo.findTicket(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NO_TICKET_FOUND");
  await assertVisible(ctx, actor, row);
  return row;
}

export async function assertVisible(ctx: AppContext, actor: RequestActor, row: TicketRow): Promise<void> {
  const v = await visibilityFor(ctx.sql, actor);
  if (!canSeeTicketRow(v, row)) throw new AppError("ERR_NO_PERMISSION", "Sem permissão para ver este ticket");
}
