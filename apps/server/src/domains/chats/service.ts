import { channel, CHAT_MESSAGES, LIMITS, type Chat, type ChatEvent, type ChatMessage, type ChatMessagesPage, type ChatsPage } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { presentChat, presentChatMessage } from "./presenter.js";
import * as repo from "./repository.js";

const notFound = () => new AppError("ERR_NOT_FOUND", "Conversa não encontrada");

/** Chat events reach the chat's members only (their user rooms), never the rest of the company. */
function emitTo(ctx: AppContext, companyId: number, userIds: number[], event: ChatEvent) {
  if (userIds.length) ctx.realtime.emit(userIds.map(rooms.user), channel.chat(companyId), event);
}
const memberIds = (c: Chat) => c.users.map((u) => u.userId);

export async function pageChats(ctx: AppContext, actor: RequestActor, q: { searchParam: string; pageNumber: number }): Promise<ChatsPage> {
  const limit = LIMITS.listPageSize;
  const offset = (q.pageNumber - 1) * limit;
  const { rows, count } = await repo.pageChats(ctx.sql, actor.companyId, actor.id, { search: q.searchParam.trim(), limit, offset });
  return { records: rows.map(presentChat), count, hasMore: count > offset + rows.length };
}

async function memberChat(ctx: AppContext, actor: RequestActor, ref: number | string) {
  const row = await repo.findMemberChat(ctx.sql, actor.companyId, actor.id, ref);
  if (!row) throw notFound();
  return row;
}

export async function showChat(ctx: AppContext, actor: RequestActor, ref: number | string): Promise<Chat> {
  return presentChat(await memberChat(ctx, actor, ref));
}

/** The members: the chosen users of the company plus the owner; an id of another company is refused. */
async function members(ctx: AppContext, actor: RequestActor, ownerId: number, ids: number[]): Promise<number[]> {
  const wanted = [...new Set(ids)].filter((id) => id !== ownerId);
  const found = await repo.companyUserIds(ctx.sql, actor.companyId, wanted);
  if (found.length !== wanted.length) throw new AppError("ERR_NO_USER_FOUND", "Usuário não encontrado");
  if (!found.length) throw new AppError("ERR_VALIDATION", CHAT_MESSAGES.usersRequired, { fields: { users: CHAT_MESSAGES.usersRequired } });
  return [ownerId, ...found];
}

export async function createChat(ctx: AppContext, actor: RequestActor, input: { title: string; users: number[] }): Promise<Chat> {
  const ids = await members(ctx, actor, actor.id, input.users);
  const id = await repo.insertChat(ctx.sql, actor.companyId, actor.id, input.title, ids);
  const record = presentChat((await repo.findChat(ctx.sql, actor.companyId, id))!);
  emitTo(ctx, actor.companyId, ids, { action: "create", record });
  return record;
}

/** Only the owner edits or deletes a chat (spec 3 §6). */
async function ownedChat(ctx: AppContext, actor: RequestActor, id: number) {
  const row = await memberChat(ctx, actor, id);
  if (row.owner_id !== actor.id) throw new AppError("ERR_NO_PERMISSION", "Só quem criou a conversa pode alterá-la");
  return row;
}

export async function updateChat(ctx: AppContext, actor: RequestActor, id: number, input: { title: string; users: number[] }): Promise<Chat> {
  await ownedChat(ctx, actor, id);
  const ids = await members(ctx, actor, actor.id, input.users);
  const removed = await repo.updateChat(ctx.sql, actor.companyId, id, input.title, ids);
  const record = presentChat((await repo.findChat(ctx.sql, actor.companyId, id))!);
  emitTo(ctx, actor.companyId, ids, { action: "update", record });
  emitTo(ctx, actor.companyId, removed, { action: "delete", id });
  return record;
}

export async function deleteChat(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  const row = await ownedChat(ctx, actor, id);
  await repo.deleteChat(ctx.sql, actor.companyId, id);
  emitTo(ctx, actor.companyId, presentChat(row).users.map((u) => u.userId), { action: "delete", id });
}

export async function pageMessages(ctx: AppContext, actor: RequestActor, id: number, pageNumber: number): Promise<ChatMessagesPage> {
  await memberChat(ctx, actor, id);
  const limit = LIMITS.listPageSize;
  const offset = (pageNumber - 1) * limit;
  const { rows, count } = await repo.pageMessages(ctx.sql, id, limit, offset);
  return { records: rows.map(presentChatMessage), count, hasMore: count > offset + rows.length };
}

export async function sendMessage(ctx: AppContext, actor: RequestActor, id: number, message: string): Promise<ChatMessage> {
  await memberChat(ctx, actor, id);
  const newMessage = presentChatMessage(await repo.insertMessage(ctx.sql, actor.companyId, id, actor.id, message));
  const record = presentChat((await repo.findChat(ctx.sql, actor.companyId, id))!);
  emitTo(ctx, actor.companyId, memberIds(record), { action: "new-message", record, newMessage });
  return newMessage;
}

/** The user read the chat: their unread count goes to 0 (the spec's body names the user; it is always the caller). */
export async function markRead(ctx: AppContext, actor: RequestActor, id: number): Promise<Chat> {
  await memberChat(ctx, actor, id);
  await repo.markRead(ctx.sql, id, actor.id);
  const record = presentChat((await repo.findChat(ctx.sql, actor.companyId, id))!);
  emitTo(ctx, actor.companyId, [actor.id], { action: "update", record });
  return record;
}
