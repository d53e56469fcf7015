import { canChangeTicketTags, channel, LIMITS, type Tag, type tagInput, type TagsPage, type tagUpdateInput, type Ticket } from "@atende/shared";
import type { z } from "zod";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { emitTicketUpdate } from "../tickets/events.js";
import { presentTicket } from "../tickets/presenter.js";
import * as ticketRepo from "../tickets/repository.js";
import { loadVisibleTicket } from "../tickets/visibility.js";
import { presentTag } from "./presenter.js";
import * as repo from "./repository.js";

type CreateInput = z.output<typeof tagInput>;
type UpdateInput = z.output<typeof tagUpdateInput>;

const duplicated = () => new AppError("ERR_VALIDATION", "Já existe uma tag com este nome", { fields: { name: "Já existe uma tag com este nome" } });
const isUnique = (err: unknown) => typeof err === "object" && err !== null && (err as { code?: string }).code === "23505";

function emit(ctx: AppContext, companyId: number, payload: unknown) {
  ctx.realtime.emit(rooms.company(companyId), channel.tag(companyId), payload);
}

export async function pageTags(ctx: AppContext, actor: RequestActor, searchParam: string, pageNumber: number): Promise<TagsPage> {
  const size = LIMITS.listPageSize;
  const { rows, count } = await repo.pageTags(ctx.sql, actor.companyId, searchParam, size, (pageNumber - 1) * size);
  return { tags: rows.map(presentTag), hasMore: pageNumber * size < count, count };
}

export async function listTags(ctx: AppContext, actor: RequestActor, kanbanOnly = false): Promise<Tag[]> {
  return (await repo.listTags(ctx.sql, actor.companyId, kanbanOnly)).map(presentTag);
}

export async function showTag(ctx: AppContext, actor: RequestActor, id: number): Promise<Tag> {
  const row = await repo.findTag(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NOT_FOUND", "Tag não encontrada");
  return presentTag(row);
}

export async function createTag(ctx: AppContext, actor: RequestActor, input: CreateInput): Promise<Tag> {
  const row = await repo.insertTag(ctx.sql, actor.companyId, { ...input, userId: actor.id });
  if (!row) throw duplicated();
  const tag = presentTag((await repo.findTag(ctx.sql, actor.companyId, row.id))!);
  emit(ctx, actor.companyId, { action: "create", tag });
  return tag;
}

export async function updateTag(ctx: AppContext, actor: RequestActor, id: number, input: UpdateInput): Promise<Tag> {
  if (!(await repo.findTag(ctx.sql, actor.companyId, id))) throw new AppError("ERR_NOT_FOUND", "Tag não encontrada");
  if (input.userId) {
    const u = await ctx.sql.maybe("SELECT 1 FROM users WHERE company_id = $1 AND id = $2", [actor.companyId, input.userId]);
    if (!u) throw new AppError("ERR_NO_USER_FOUND");
  }
  try {
    await repo.updateTag(ctx.sql, actor.companyId, id, input);
  } catch (err) {
    if (isUnique(err)) throw duplicated();
    throw err;
  }
  const tag = presentTag((await repo.findTag(ctx.sql, actor.companyId, id))!);
  emit(ctx, actor.companyId, { action: "update", tag });
  return tag;
}

export async function deleteTag(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  if (!(await repo.deleteTag(ctx.sql, actor.companyId, id))) throw new AppError("ERR_NOT_FOUND", "Tag não encontrada");
  emit(ctx, actor.companyId, { action: "delete", tagId: id });
}

/** POST /tags/sync: the ticket's tag set becomes exactly `tagIds` (1-core §4 rule on who may). */
export async function syncTicketTags(ctx: AppContext, actor: RequestActor, ticketId: number, tagIds: number[]): Promise<Ticket> {
  const ticket = await loadVisibleTicket(ctx, actor, ticketId);
  const rule = { status: ticket.status, userId: ticket.user_id, queue: ticket.queue_name ? { name: ticket.queue_name } : null };
  if (!canChangeTicketTags({ id: actor.id, profile: actor.profile, super: actor.super }, rule)) {
    throw new AppError("ERR_NO_PERMISSION", "Tags só podem ser alteradas em tickets abertos ou pausados atribuídos a você");
  }
  const ids = [...new Set(tagIds)];
  if (ids.length && (await repo.countCompanyTags(ctx.sql, actor.companyId, ids)).n !== ids.length) {
    throw new AppError("ERR_NOT_FOUND", "Tag não encontrada");
  }
  await ctx.sql.tx((sql) => repo.setTicketTags(sql, actor.companyId, ticketId, ids));
  const row = (await ticketRepo.findTicket(ctx.sql, actor.companyId, ticketId))!;
  await emitTicketUpdate(ctx, row);
  return presentTicket(row);
}
