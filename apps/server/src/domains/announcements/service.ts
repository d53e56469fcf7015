import {
  ANNOUNCEMENT_IMAGE_EXTENSIONS,
  channel,
  LIMITS,
  type Announcement,
  type AnnouncementEvent,
  type announcementInput,
  type AnnouncementsPage,
} from "@atende/shared";
import type { Readable } from "node:stream";
import type { z } from "zod";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { mediaStorage } from "../../core/storage.js";
import type { OutgoingFile } from "../messages/send-message.js";
import { presentAnnouncement } from "./presenter.js";
import * as repo from "./repository.js";

type Input = z.output<typeof announcementInput>;

const notFound = () => new AppError("ERR_NOT_FOUND", "Informativo não encontrado");

/** Every signed-in socket of every company: announcements are the platform's word to all its users. */
function emit(ctx: AppContext, event: AnnouncementEvent) {
  ctx.realtime.emit(rooms.everyone(), channel.announcement(), event);
}

/**
 * The page (super administrators: all, or the active ones with `active=true`) and the app bar's list
 * (everyone else: the active ones only), with how many active ones the user has not opened yet.
 */
export async function pageAnnouncements(
  ctx: AppContext,
  actor: RequestActor,
  q: { searchParam: string; pageNumber: number; active?: "true" | "false" },
): Promise<AnnouncementsPage> {
  const limit = LIMITS.listPageSize;
  const offset = (q.pageNumber - 1) * limit;
  const activeOnly = !actor.super || q.active === "true";
  const [{ rows, count }, unseen] = await Promise.all([
    repo.pageAnnouncements(ctx.sql, { search: q.searchParam.trim(), activeOnly, limit, offset }),
    repo.countUnseen(ctx.sql, actor.companyId, actor.id),
  ]);
  return { records: rows.map(presentAnnouncement), count, hasMore: count > offset + rows.length, unseen };
}

/** Opening the app bar's list: the dot goes until an announcement is created or changed. */
export async function markSeen(ctx: AppContext, actor: RequestActor): Promise<void> {
  await repo.markSeen(ctx.sql, actor.companyId, actor.id);
}

/** An inactive announcement exists only for super administrators. */
async function readable(ctx: AppContext, actor: RequestActor, id: number) {
  const row = await repo.findAnnouncement(ctx.sql, id);
  if (!row || (!row.status && !actor.super)) throw notFound();
  return row;
}

export async function showAnnouncement(ctx: AppContext, actor: RequestActor, id: number): Promise<Announcement> {
  return presentAnnouncement(await readable(ctx, actor, id));
}

export async function createAnnouncement(ctx: AppContext, actor: RequestActor, input: Input): Promise<Announcement> {
  const record = presentAnnouncement(await repo.insertAnnouncement(ctx.sql, actor.companyId, input));
  emit(ctx, { action: "create", record });
  return record;
}

export async function updateAnnouncement(ctx: AppContext, id: number, input: Input): Promise<Announcement> {
  const row = await repo.updateAnnouncement(ctx.sql, id, input);
  if (!row) throw notFound();
  const record = presentAnnouncement(row);
  emit(ctx, { action: "update", record });
  return record;
}

/** A file that could not be removed is only wasted space (nothing points at it any more): logged, not refused. */
const orphanedFile = (ctx: AppContext, mediaPath: string) => (err: unknown) => ctx.log.warn({ err, mediaPath }, "could not remove an announcement's old image");

export async function deleteAnnouncement(ctx: AppContext, id: number): Promise<void> {
  const row = await repo.deleteAnnouncement(ctx.sql, id);
  if (!row) throw notFound();
  if (row.media_path) await mediaStorage(ctx.config.dataDir).remove(row.media_path).catch(orphanedFile(ctx, row.media_path));
  emit(ctx, { action: "delete", id });
}

/** PNG or JPEG by their first bytes, with a matching name: what the file is, not what it claims. */
export function imageKind(file: OutgoingFile): "image/png" | "image/jpeg" | null {
  const d = file.data;
  const ext = file.fileName.toLowerCase().slice(file.fileName.lastIndexOf("."));
  if (!(ANNOUNCEMENT_IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return null;
  if (d.length > 8 && d[0] === 0x89 && d[1] === 0x50 && d[2] === 0x4e && d[3] === 0x47) return ext === ".png" ? "image/png" : null;
  if (d.length > 3 && d[0] === 0xff && d[1] === 0xd8 && d[2] === 0xff) return ext === ".png" ? null : "image/jpeg";
  return null;
}

export async function uploadMedia(ctx: AppContext, actor: RequestActor, id: number, file: OutgoingFile | undefined): Promise<Announcement> {
  const row = await repo.findAnnouncement(ctx.sql, id);
  if (!row) throw notFound();
  if (!file) throw new AppError("ERR_VALIDATION", "Por favor, selecione um arquivo.", { fields: { file: "Obrigatório" } });
  const kind = imageKind(file);
  if (!kind) throw new AppError("ERR_VALIDATION", "A imagem deve ser PNG, JPG ou JPEG.", { fields: { file: "A imagem deve ser PNG, JPG ou JPEG." } });
  const storage = mediaStorage(ctx.config.dataDir);
  const path = await storage.put(actor.companyId, file.data, { fileName: file.fileName, mimetype: kind });
  const updated = await repo.setMedia(ctx.sql, id, { path, name: file.fileName.slice(0, 200) });
  if (!updated) {
    await storage.remove(path).catch(orphanedFile(ctx, path));
    throw notFound();
  }
  if (row.media_path) await storage.remove(row.media_path).catch(orphanedFile(ctx, row.media_path));
  const record = presentAnnouncement(updated);
  emit(ctx, { action: "update", record });
  return record;
}

export async function deleteMedia(ctx: AppContext, id: number): Promise<Announcement> {
  const row = await repo.findAnnouncement(ctx.sql, id);
  if (!row) throw notFound();
  const updated = await repo.setMedia(ctx.sql, id, null);
  if (!updated) throw notFound();
  if (row.media_path) await mediaStorage(ctx.config.dataDir).remove(row.media_path).catch(orphanedFile(ctx, row.media_path));
  const record = presentAnnouncement(updated);
  emit(ctx, { action: "update", record });
  return record;
}

export async function openMedia(ctx: AppContext, actor: RequestActor, id: number): Promise<{ stream: Readable; size: number; mimetype: string; fileName: string }> {
  const row = await readable(ctx, actor, id);
  if (!row.media_path || !row.media_name) throw notFound();
  const file = await mediaStorage(ctx.config.dataDir).open(row.media_path);
  if (!file) throw notFound();
  const mimetype = row.media_name.toLowerCase().endsWith(".png") ? "image/png" : "image/jpeg";
  return { ...file, fileName: row.media_name, mimetype };
}
