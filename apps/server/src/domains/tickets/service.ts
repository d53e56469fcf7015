import { authorizeTicket, channel, LIMITS, type Ticket, type TicketSyncResponse, type ticketSyncQuery } from "@atende/shared";
import type { z } from "zod";
import { channels } from "../../channels/manager.js";
import { assertNotConnectionNumber } from "../../channels/routing/own-numbers.js";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { enforce } from "../../core/enforce.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { mediaStorage } from "../../core/storage.js";
import { presentContact } from "../contacts/presenter.js";
import * as contactRepo from "../contacts/repository.js";
import { presentMessage } from "../messages/presenter.js";
import * as messageRepo from "../messages/repository.js";
import { sendAsAgent } from "../messages/service.js";
import type { OutgoingFile } from "../messages/send-message.js";
import * as whatsappRepo from "../whatsapp/repository.js";
import { emitTicketDelete, emitTicketUpdate, emitUnread } from "./events.js";
import { presentTicket } from "./presenter.js";
import * as repo from "./repository.js";
import type { TicketRow } from "./repository.js";
import { assertVisible, loadVisibleTicket, visibilityFor, visibilitySql } from "./visibility.js";

/** A ticket of the actor's company that the actor may see; 404 / 403 otherwise. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function showTicket(ctx: AppContext, actor: RequestActor, idOrUuid: string): Promise<Ticket> {
  let row: TicketRow | null = null;
  if (UUID.test(idOrUuid)) row = await repo.findTicketByUuid(ctx.sql, actor.companyId, idOrUuid);
  else if (/^\d{1,10}$/.test(idOrUuid)) row = await repo.findTicket(ctx.sql, actor.companyId, Number(idOrUuid));
  if (!row) throw new AppError("ERR_NO_TICKET_FOUND");
  await assertVisible(ctx, actor, row);
  return presentTicket(row);
}

export interface CreateTicketInput {
  contactId?: number;
  number?: string;
  whatsappId?: number;
  userId?: number | null;
  queueId?: number | null;
  status?: "pending" | "open" | "paused" | "closed";
  message?: string;
}

async function otherOpenTicket(ctx: AppContext, companyId: number, contactId: number, whatsappId: number | null): Promise<AppError> {
  const active = await repo.findActiveTicket(ctx.sql, companyId, contactId, whatsappId);
  const row = active ? await repo.findTicket(ctx.sql, companyId, active.id) : null;
  return new AppError("ERR_OTHER_OPEN_TICKET", "Já existe um ticket aberto para este contato", row ? { ticket: presentTicket(row) } : {});
}

/**
 * POST /tickets: a proactive ticket (originFromMe), open for the user unless `status: pending` is
 * asked. The contact is an existing one (contactId) or found/created by number. With a message
 * (and/or file) it is sent at once, so the connection must be connected.
 */
export async function createTicket(ctx: AppContext, actor: RequestActor, input: CreateTicketInput, file?: OutgoingFile): Promise<Ticket> {
  const companyId = actor.companyId;
  let whatsappId = input.whatsappId ?? null;
  if (whatsappId === null) {
    const mine = await ctx.sql.maybe<{ whatsapp_id: number | null }>("SELECT whatsapp_id FROM users WHERE company_id = $1 AND id = $2", [
      companyId,
      actor.id,
    ]);
    whatsappId = mine?.whatsapp_id ?? (await whatsappRepo.defaultWhatsapp(ctx.sql, companyId))?.id ?? null;
    if (whatsappId === null) throw new AppError("ERR_NO_DEF_WAPP_FOUND", "Selecione uma conexão para abrir o ticket");
  }
  const connection = await whatsappRepo.findWhatsapp(ctx.sql, companyId, whatsappId);
  if (!connection) throw new AppError("ERR_NO_WAPP_FOUND");
  const hasMessage = Boolean(input.message?.trim()) || Boolean(file);
  if (hasMessage) await channels(ctx).sendTarget(companyId, whatsappId);

  let userId: number | null = input.userId ?? actor.id;
  if (userId !== actor.id) {
    if (userId !== null) enforce(authorizeTicket(actor, "assignOther", { status: "open", userId: null }));
    if (userId !== null && !(await repo.userInCompany(ctx.sql, companyId, userId))) throw new AppError("ERR_NO_USER_FOUND");
  }
  const status = input.status === "pending" ? "pending" : "open";
  if (status === "open" && userId === null) userId = actor.id;

  let queueId = input.queueId ?? null;
  if (queueId !== null) {
    if (!(await repo.queueInCompany(ctx.sql, companyId, queueId))) throw new AppError("ERR_VALIDATION", "Fila não encontrada");
  } else if (connection.queues.length === 1) {
    queueId = connection.queues[0]!.id;
  } else if (actor.queueIds.length === 1) {
    queueId = actor.queueIds[0]!;
  }

  let contactId: number;
  let contactCreated = false;
  if (input.contactId !== undefined) {
    const contact = await contactRepo.findContact(ctx.sql, companyId, input.contactId);
    if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
    if (!contact.is_group) await assertNotConnectionNumber(ctx.sql, companyId, contact.number);
    contactId = contact.id;
  } else if (input.number) {
    await assertNotConnectionNumber(ctx.sql, companyId, input.number);
    const found = await contactRepo.findOrCreateByNumber(ctx.sql, companyId, { number: input.number, name: "", isGroup: false, whatsappId });
    contactId = found.id;
    contactCreated = found.created;
  } else {
    throw new AppError("ERR_VALIDATION", "Digite um número de telefone válido", { fields: { number: "Digite um número de telefone válido" } });
  }
  if (contactCreated) {
    const c = await contactRepo.findContact(ctx.sql, companyId, contactId);
    if (c) ctx.realtime.emit(rooms.company(companyId), channel.contact(companyId), { action: "create", contact: presentContact(c) });
  }

  const id = await repo.insertTicketIfNone(ctx.sql, {
    companyId,
    contactId,
    whatsappId,
    status,
    userId: status === "open" ? userId : null,
    queueId,
    isGroup: false,
    originFromMe: true,
  });
  if (id === null) throw await otherOpenTicket(ctx, companyId, contactId, whatsappId);
  let row = (await repo.findTicket(ctx.sql, companyId, id))!;
  await emitTicketUpdate(ctx, row);
  if (hasMessage) {
    await sendAsAgent(ctx, actor, row, { body: input.message ?? "", files: file ? [file] : [] });
    row = (await repo.findTicket(ctx.sql, companyId, id))!;
  }
  return presentTicket(row);
}

export async function deleteTicket(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  const row = await repo.findTicket(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NO_TICKET_FOUND");
  enforce(authorizeTicket(actor, "delete", { status: row.status, userId: row.user_id }));
  const media = await ctx.sql.many<{ media_path: string }>(
    "SELECT media_path FROM messages WHERE company_id = $1 AND ticket_id = $2 AND media_path IS NOT NULL",
    [actor.companyId, id],
  );
  await repo.deleteTicket(ctx.sql, actor.companyId, id);
  const storage = mediaStorage(ctx.config.dataDir);
  // the ticket is gone; a file left behind is wasted space only
  for (const m of media) {
    await storage.remove(m.media_path).catch((err: unknown) => ctx.log.warn({ err, ticketId: id, mediaPath: m.media_path }, "could not remove a deleted ticket's file"));
  }
  await emitTicketDelete(ctx, row);
}

/** POST /tickets/{id}/read: unread back to 0, the contact's phone told, the list told. */
export async function markTicketRead(ctx: AppContext, actor: RequestActor, id: number): Promise<Ticket> {
  const row = await loadVisibleTicket(ctx, actor, id);
  await repo.resetUnread(ctx.sql, actor.companyId, id);
  await messageRepo.markTicketMessagesRead(ctx.sql, actor.companyId, id);
  // the phone's read marks are a courtesy: the ticket is read here whatever the connection says; they go
  // to the process that runs the connection (carried there when it is another)
  if (row.whatsapp_id !== null && row.unread_messages > 0) {
    await channels(ctx)
      .act(actor.companyId, row.whatsapp_id, "markRead", { to: row.contact_address })
      .catch((err: unknown) => ctx.log.warn({ err, ticketId: id, whatsappId: row.whatsapp_id }, "could not mark the chat read on the phone"));
  }
  const fresh = (await repo.findTicket(ctx.sql, actor.companyId, id))!;
  await emitUnread(ctx, fresh);
  return presentTicket(fresh);
}

type SyncQuery = z.output<typeof ticketSyncQuery>;

/**
 * GET /tickets/sync: the tickets the user may see (the widest view allowed) updated in
 * (since, until), newest first, `limit` per call with hasMore; each with its last 30 messages.
 * The web pages backwards with until = the oldest updatedAt received.
 */
export async function syncTickets(ctx: AppContext, actor: RequestActor, q: SyncQuery): Promise<TicketSyncResponse> {
  const v = await visibilityFor(ctx.sql, actor);
  const params: unknown[] = [actor.companyId];
  const where = ["t.company_id = $1", visibilitySql(v, params, true)];
  if (q.since) {
    params.push(q.since);
    where.push(`t.updated_at > $${params.length}`);
  }
  if (q.until) {
    params.push(q.until);
    where.push(`t.updated_at < $${params.length}`);
  }
  if (q.status) {
    params.push(q.status);
    where.push(`t.status = $${params.length}`);
  }
  const ids = await ctx.sql.many<{ id: number }>(
    `SELECT t.id FROM tickets t WHERE ${where.join(" AND ")} ORDER BY t.updated_at DESC, t.id DESC LIMIT ${q.limit + 1}`,
    params,
  );
  const hasMore = ids.length > q.limit;
  const rows = await repo.ticketsByIds(
    ctx.sql,
    actor.companyId,
    ids.slice(0, q.limit).map((r) => r.id),
  );
  const messages = await messageRepo.lastMessagesOfTickets(
    ctx.sql,
    actor.companyId,
    rows.map((r) => r.id),
    LIMITS.offlineMessagesPerTicket,
  );
  const byTicket = new Map<number, ReturnType<typeof presentMessage>[]>();
  for (const m of messages) {
    const list = byTicket.get(m.ticket_id) ?? [];
    list.push(presentMessage(m));
    byTicket.set(m.ticket_id, list);
  }
  return { tickets: rows.map((r) => ({ ...presentTicket(r), messages: byTicket.get(r.id) ?? [] })), hasMore };
}
