import { channel, SCHEDULE_MEDIA_EXTENSIONS, zonedLocalToDate, type ScheduleEvent } from "@atende/shared";
import type { z } from "zod";
import type { scheduleInput, scheduleUpdateInput } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { mediaStorage } from "../../core/storage.js";
import { companyTimeZone } from "../companies/repository.js";
import { queueScheduleSend } from "./job.js";
import { canChangeSchedule } from "./policy.js";
import { presentSchedule } from "./presenter.js";
import * as repo from "./repository.js";

type CreateInput = z.output<typeof scheduleInput>;

/** A wall-clock send time is read in the company's time zone; an instant is kept. */
async function instant(ctx: AppContext, companyId: number, sendAt: string | Date): Promise<Date> {
  if (sendAt instanceof Date) return sendAt;
  const at = zonedLocalToDate(sendAt, await companyTimeZone(ctx.sql, companyId));
  if (Number.isNaN(at.getTime())) throw new AppError("ERR_VALIDATION", "Data inválida");
  return at;
}
type UpdateInput = z.output<typeof scheduleUpdateInput>;

const notFound = () => new AppError("ERR_NOT_FOUND", "Agendamento não encontrado");
const alreadySent = () => new AppError("ERR_SCHEDULE_ALREADY_SENT", "Este agendamento já foi enviado e não pode ser alterado");

export function emitSchedule(ctx: AppContext, companyId: number, event: ScheduleEvent) {
  ctx.realtime.emit(rooms.company(companyId), channel.schedule(companyId), event);
}

async function load(ctx: AppContext, companyId: number, id: number) {
  const row = await repo.findSchedule(ctx.sql, companyId, id);
  if (!row) throw notFound();
  return row;
}

export async function emitCurrent(ctx: AppContext, companyId: number, id: number, action: "create" | "update" = "update") {
  const row = await repo.findSchedule(ctx.sql, companyId, id);
  if (!row) return null;
  const schedule = presentSchedule(row);
  emitSchedule(ctx, companyId, { action, schedule });
  return schedule;
}

export async function listSchedules(ctx: AppContext, companyId: number, q: { searchParam: string; pageNumber: number; contactId?: number }) {
  const { rows, count } = await repo.listSchedules(ctx.sql, companyId, q);
  return { schedules: rows.map(presentSchedule), count, hasMore: q.pageNumber * repo.PAGE_SIZE < count };
}

export async function getSchedule(ctx: AppContext, companyId: number, id: number) {
  return presentSchedule(await load(ctx, companyId, id));
}

async function assertRefs(ctx: AppContext, companyId: number, contactId: number | undefined, whatsappId: number | null | undefined) {
  if (contactId !== undefined && !(await repo.contactExists(ctx.sql, companyId, contactId))) {
    throw new AppError("ERR_NO_CONTACT_FOUND", "Contato não encontrado");
  }
  if (whatsappId && !(await repo.whatsappExists(ctx.sql, companyId, whatsappId))) {
    throw new AppError("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
  }
}

export async function createSchedule(ctx: AppContext, actor: RequestActor, input: CreateInput) {
  await assertRefs(ctx, actor.companyId, input.contactId, input.whatsappId);
  const sendAt = await instant(ctx, actor.companyId, input.sendAt);
  const id = await repo.insertSchedule(ctx.sql, actor.companyId, {
    body: input.body,
    sendAt,
    contactId: input.contactId,
    whatsappId: input.whatsappId ?? null,
    userId: actor.id,
  });
  try {
    await queueScheduleSend(ctx, actor.companyId, id, sendAt);
  } catch (err) {
    // Without its job the schedule would never be sent: undo the save so the user can try again.
    await repo.deleteSchedule(ctx.sql, actor.companyId, id);
    throw err;
  }
  return (await emitCurrent(ctx, actor.companyId, id, "create"))!;
}

/**
 * Saves a schedule that was not sent yet. A new send time (or saving one that failed) cancels the
 * queued job and queues a new one.
 */
export async function updateSchedule(ctx: AppContext, actor: RequestActor, id: number, input: UpdateInput) {
  await assertRefs(ctx, actor.companyId, input.contactId, input.whatsappId);
  const newSendAt = input.sendAt === undefined ? undefined : await instant(ctx, actor.companyId, input.sendAt);
  const change = await ctx.sql.tx(async (sql) => {
    const row = await repo.findSchedule(sql, actor.companyId, id, { lock: true });
    if (!row) throw notFound();
    if (!canChangeSchedule(actor, row)) throw new AppError("ERR_NO_PERMISSION", "Sem permissão");
    // Sent, or being handed to the connection right now.
    if (row.sent_at || row.status === "ENVIADA" || row.claimed_at) throw alreadySent();
    const sendAt = newSendAt ?? row.send_at;
    const rescheduled = sendAt.getTime() !== row.send_at.getTime() || row.status === "ERRO" || row.status === "PENDENTE";
    await repo.updateSchedule(sql, actor.companyId, id, {
      body: input.body ?? row.body,
      sendAt,
      contactId: input.contactId ?? row.contact_id,
      whatsappId: input.whatsappId === undefined ? row.whatsapp_id : input.whatsappId,
      rescheduled,
    });
    return { rescheduled, sendAt, oldJob: row.job_id };
  });
  if (change.rescheduled) {
    // a job that cannot be cancelled does nothing when it runs: it was queued for the old time
    if (change.oldJob) await ctx.jobs.cancel("schedules.send", change.oldJob).catch(staleJobLeft(ctx, id));
    await queueScheduleSend(ctx, actor.companyId, id, change.sendAt);
  }
  return (await emitCurrent(ctx, actor.companyId, id))!;
}

const staleJobLeft = (ctx: AppContext, scheduleId: number) => (err: unknown) =>
  ctx.log.warn({ err, scheduleId }, "could not cancel a schedule's old send job; it will find nothing to send");

export async function deleteSchedule(ctx: AppContext, actor: RequestActor, id: number) {
  const row = await load(ctx, actor.companyId, id);
  if (!canChangeSchedule(actor, row)) throw new AppError("ERR_NO_PERMISSION", "Sem permissão");
  if (!(await repo.deleteSchedule(ctx.sql, actor.companyId, id))) throw notFound();
  // a job that cannot be cancelled finds the schedule gone and does nothing
  if (row.job_id && !row.sent_at) await ctx.jobs.cancel("schedules.send", row.job_id).catch(staleJobLeft(ctx, id));
  // The file stays when the sent message points at it.
  if (row.media_path && !row.sent_at) await mediaStorage(ctx.config.dataDir).remove(row.media_path);
  emitSchedule(ctx, actor.companyId, { action: "delete", scheduleId: id });
}

const SIGNATURES: Record<(typeof SCHEDULE_MEDIA_EXTENSIONS)[number], (b: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
};

/** Attaches a png/jpg/jpeg image (checked by extension and content) to an unsent schedule. */
export async function attachMedia(ctx: AppContext, actor: RequestActor, id: number, file: { fileName: string; mimetype: string; data: Buffer }) {
  const row = await load(ctx, actor.companyId, id);
  if (!canChangeSchedule(actor, row)) throw new AppError("ERR_NO_PERMISSION", "Sem permissão");
  if (row.sent_at || row.status === "ENVIADA") throw alreadySent();
  const ext = file.fileName.split(".").pop()?.toLowerCase() ?? "";
  const check = SIGNATURES[ext as keyof typeof SIGNATURES];
  if (!check || !check(file.data)) {
    throw new AppError("ERR_VALIDATION", "Somente imagens png, jpg ou jpeg são aceitas", { fields: { file: "png, jpg, jpeg" } });
  }
  const storage = mediaStorage(ctx.config.dataDir);
  const key = await storage.put(actor.companyId, file.data, { fileName: file.fileName, mimetype: file.mimetype });
  const name = file.fileName.replace(/[/\\]/g, "_").slice(0, 200);
  await repo.setMedia(ctx.sql, actor.companyId, id, { path: key, name });
  if (row.media_path) await storage.remove(row.media_path);
  return (await emitCurrent(ctx, actor.companyId, id))!;
}

export async function removeMedia(ctx: AppContext, actor: RequestActor, id: number) {
  const row = await load(ctx, actor.companyId, id);
  if (!canChangeSchedule(actor, row)) throw new AppError("ERR_NO_PERMISSION", "Sem permissão");
  if (row.sent_at || row.status === "ENVIADA") throw alreadySent();
  await repo.setMedia(ctx.sql, actor.companyId, id, null);
  if (row.media_path) await mediaStorage(ctx.config.dataDir).remove(row.media_path);
  return (await emitCurrent(ctx, actor.companyId, id))!;
}

/** The attachment's file, for users of the schedule's company. */
export async function openMedia(ctx: AppContext, companyId: number, id: number) {
  const row = await load(ctx, companyId, id);
  if (!row.media_path) throw notFound();
  const file = await mediaStorage(ctx.config.dataDir).open(row.media_path);
  if (!file) throw notFound();
  const ext = row.media_path.split(".").pop() ?? "";
  return { ...file, mimetype: ext === "png" ? "image/png" : "image/jpeg", name: row.media_name ?? `imagem.${ext}` };
}
