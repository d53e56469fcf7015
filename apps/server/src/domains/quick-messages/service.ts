import { authorizeQuickMessage, channel, LIMITS, type QuickMessage, type quickMessageInput, type QuickMessagesPage, type quickMessageUpdateInput } from "@atende/shared";
import type { Readable } from "node:stream";
import type { z } from "zod";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { enforce } from "../../core/enforce.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { mediaStorage } from "../../core/storage.js";
import { mimeFromName } from "../messages/service.js";
import type { OutgoingFile } from "../messages/send-message.js";
import { presentQuickMessage } from "./presenter.js";
import * as repo from "./repository.js";

type CreateInput = z.output<typeof quickMessageInput>;
type UpdateInput = z.output<typeof quickMessageUpdateInput>;

const notFound = () => new AppError("ERR_NOT_FOUND", "Resposta rápida não encontrada");

/** Company-wide quick messages go to the company; private ones only to their author. */
function emit(ctx: AppContext, row: repo.QuickMessageRow, payload: unknown) {
  const room = row.geral || row.user_id === null ? rooms.company(row.company_id) : rooms.user(row.user_id);
  ctx.realtime.emit(room, channel.quickMessage(row.company_id), payload);
}

export async function pageQuickMessages(ctx: AppContext, actor: RequestActor, searchParam: string, pageNumber: number): Promise<QuickMessagesPage> {
  const size = LIMITS.listPageSize;
  const { rows, count } = await repo.pageQuickMessages(ctx.sql, actor.companyId, actor.id, searchParam, size, (pageNumber - 1) * size);
  return { records: rows.map(presentQuickMessage), hasMore: pageNumber * size < count, count };
}

export async function listQuickMessages(ctx: AppContext, actor: RequestActor): Promise<QuickMessage[]> {
  return (await repo.listQuickMessages(ctx.sql, actor.companyId, actor.id)).map(presentQuickMessage);
}

async function visible(ctx: AppContext, actor: RequestActor, id: number) {
  const row = await repo.findVisible(ctx.sql, actor.companyId, actor.id, id);
  if (!row) throw notFound();
  return row;
}

/** Editing: the author, or an admin for company-wide messages. */
async function editable(ctx: AppContext, actor: RequestActor, id: number) {
  const row = await visible(ctx, actor, id);
  enforce(authorizeQuickMessage(actor, "edit", { userId: row.user_id }));
  return row;
}

export async function showQuickMessage(ctx: AppContext, actor: RequestActor, id: number): Promise<QuickMessage> {
  return presentQuickMessage(await visible(ctx, actor, id));
}

export async function createQuickMessage(ctx: AppContext, actor: RequestActor, input: CreateInput): Promise<QuickMessage> {
  const id = await repo.insertQuickMessage(ctx.sql, actor.companyId, actor.id, input);
  const row = (await repo.findVisible(ctx.sql, actor.companyId, actor.id, id))!;
  const record = presentQuickMessage(row);
  emit(ctx, row, { action: "create", record });
  return record;
}

export async function updateQuickMessage(ctx: AppContext, actor: RequestActor, id: number, input: UpdateInput): Promise<QuickMessage> {
  const before = await editable(ctx, actor, id);
  await repo.updateQuickMessage(ctx.sql, actor.companyId, id, input);
  const row = (await repo.findVisible(ctx.sql, actor.companyId, actor.id, id))!;
  const record = presentQuickMessage(row);
  if (before.geral && !row.geral) emit(ctx, before, { action: "delete", id });
  emit(ctx, row, { action: "update", record });
  return record;
}

/** A file that could not be removed is only wasted space (nothing points at it any more): logged, not refused. */
const orphanedFile = (ctx: AppContext, mediaPath: string) => (err: unknown) =>
  ctx.log.warn({ err, mediaPath }, "could not remove a quick message's old file");

export async function deleteQuickMessage(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  const row = await editable(ctx, actor, id);
  await repo.deleteQuickMessage(ctx.sql, actor.companyId, id);
  if (row.media_path) await mediaStorage(ctx.config.dataDir).remove(row.media_path).catch(orphanedFile(ctx, row.media_path));
  emit(ctx, row, { action: "delete", id });
}

export async function uploadMedia(ctx: AppContext, actor: RequestActor, id: number, file: OutgoingFile | undefined): Promise<QuickMessage> {
  const row = await editable(ctx, actor, id);
  if (!file) throw new AppError("ERR_VALIDATION", "Por favor, selecione um arquivo.", { fields: { file: "Required" } });
  const storage = mediaStorage(ctx.config.dataDir);
  const path = await storage.put(actor.companyId, file.data, { fileName: file.fileName, mimetype: file.mimetype });
  await repo.updateQuickMessage(ctx.sql, actor.companyId, id, { media_path: path, media_name: file.fileName });
  if (row.media_path) await storage.remove(row.media_path).catch(orphanedFile(ctx, row.media_path));
  return updatedRecord(ctx, actor, id);
}

export async function deleteMedia(ctx: AppContext, actor: RequestActor, id: number): Promise<QuickMessage> {
  const row = await editable(ctx, actor, id);
  await repo.updateQuickMessage(ctx.sql, actor.companyId, id, { media_path: null, media_name: null });
  if (row.media_path) await mediaStorage(ctx.config.dataDir).remove(row.media_path).catch(orphanedFile(ctx, row.media_path));
  return updatedRecord(ctx, actor, id);
}

async function updatedRecord(ctx: AppContext, actor: RequestActor, id: number): Promise<QuickMessage> {
  const row = (await repo.findVisible(ctx.sql, actor.companyId, actor.id, id))!;
  const record = presentQuickMessage(row);
  emit(ctx, row, { action: "update", record });
  return record;
}

export async function openMedia(ctx: AppContext, actor: RequestActor, id: number): Promise<{ stream: Readable; size: number; mimetype: string; fileName: string }> {
  const row = await visible(ctx, actor, id);
  if (!row.media_path) throw notFound();
  const file = await mediaStorage(ctx.config.dataDir).open(row.media_path);
  if (!file) throw notFound();
  const fileName = row.media_name ?? "arquivo";
  return { ...file, fileName, mimetype: mimeFromName(fileName) };
}
