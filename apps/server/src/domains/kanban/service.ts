import { canChangeTicketTags, KANBAN_MESSAGES } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { emitTicketUpdate } from "../tickets/events.js";
import { presentTicket } from "../tickets/presenter.js";
import { findTicket } from "../tickets/repository.js";
import { loadVisibleTicket, visibilityFor } from "../tickets/visibility.js";
import * as repo from "./repository.js";

export async function listKanban(ctx: AppContext, actor: RequestActor, queueIds: number[] | undefined) {
  const v = await visibilityFor(ctx.sql, actor);
  return { tickets: (await repo.kanbanTickets(ctx.sql, v, queueIds)).map(presentTicket) };
}

/** The ticket, when the actor sees it and may change its tags (1-core §4: assignee of an open/paused ticket, or admin). */
async function taggableTicket(ctx: AppContext, actor: RequestActor, ticketId: number) {
  const row = await loadVisibleTicket(ctx, actor, ticketId);
  const rule = { status: row.status, userId: row.user_id, queue: row.queue_name ? { name: row.queue_name } : null };
  if (!canChangeTicketTags({ id: actor.id, profile: actor.profile, super: actor.super }, rule)) {
    throw new AppError("ERR_NO_PERMISSION", "Tags só podem ser alteradas em tickets abertos ou pausados atribuídos a você");
  }
  return row;
}

async function announce(ctx: AppContext, companyId: number, ticketId: number) {
  const row = (await findTicket(ctx.sql, companyId, ticketId))!;
  return emitTicketUpdate(ctx, row);
}

export async function addTag(ctx: AppContext, actor: RequestActor, ticketId: number, tagId: number) {
  await taggableTicket(ctx, actor, ticketId);
  if (!(await repo.findTag(ctx.sql, actor.companyId, tagId))) throw new AppError("ERR_NOT_FOUND", "Tag não encontrada");
  await ctx.sql.tx((sql) => repo.addTicketTag(sql, actor.companyId, ticketId, tagId));
  return { message: KANBAN_MESSAGES.added, ticket: await announce(ctx, actor.companyId, ticketId) };
}

export async function removeKanbanTags(ctx: AppContext, actor: RequestActor, ticketId: number) {
  await taggableTicket(ctx, actor, ticketId);
  await ctx.sql.tx((sql) => repo.removeKanbanTags(sql, actor.companyId, ticketId));
  return { message: KANBAN_MESSAGES.removed, ticket: await announce(ctx, actor.companyId, ticketId) };
}
