import { channel } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { rooms } from "../core/realtime.js";
import { mediaStorage } from "../core/storage.js";
import { presentContact } from "../domains/contacts/presenter.js";
import * as contactRepo from "../domains/contacts/repository.js";
import { messagePreview, presentMessage } from "../domains/messages/presenter.js";
import * as messageRepo from "../domains/messages/repository.js";
import { sendOutgoing } from "../domains/messages/send-message.js";
import { applyVariables } from "../domains/messages/variables.js";
import { emitAppMessage, emitTicketUpdate } from "../domains/tickets/events.js";
import { ticketProtocol } from "../domains/tickets/presenter.js";
import * as ticketRepo from "../domains/tickets/repository.js";
import type { TicketRow } from "../domains/tickets/repository.js";
import * as whatsappRepo from "../domains/whatsapp/repository.js";
import type { InboundMessage } from "./driver.js";

export interface Connection {
  companyId: number;
  whatsappId: number;
}

export interface InboundResult {
  messageId: number;
  ticketId: number;
  contactId: number;
  duplicate: boolean;
}

/**
 * Messages of one conversation are handled one after the other, in arrival order, in this process;
 * across processes a transaction-level advisory lock on the same key serialises them, and the
 * database's unique indexes (contact number, one active ticket, provider id) have the last word.
 */
const chains = new Map<string, Promise<unknown>>();

function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = chains.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return run;
}

export function processInbound(ctx: AppContext, conn: Connection, msg: InboundMessage): Promise<InboundResult> {
  return serialised(`${conn.whatsappId}:${msg.from}`, () => handleInbound(ctx, conn, msg));
}

async function handleInbound(ctx: AppContext, conn: Connection, msg: InboundMessage): Promise<InboundResult> {
  const { companyId, whatsappId } = conn;
  const existing = await messageRepo.findByProviderId(ctx.sql, companyId, whatsappId, msg.providerId);
  if (existing) {
    const t = await ticketRepo.findTicket(ctx.sql, companyId, existing.ticket_id);
    return { messageId: existing.id, ticketId: existing.ticket_id, contactId: t?.contact_id ?? 0, duplicate: true };
  }
  const connection = await whatsappRepo.findWhatsapp(ctx.sql, companyId, whatsappId);
  if (!connection) throw new Error(`connection ${whatsappId} not found`);
  const mediaPath = msg.media
    ? await mediaStorage(ctx.config.dataDir).put(companyId, msg.media.data, { fileName: msg.media.fileName, mimetype: msg.media.mimetype })
    : null;

  const result = await ctx.sql.tx(async (sql) => {
    await sql.exec("SELECT pg_advisory_xact_lock(727100, hashtext($1))", [`${whatsappId}:${msg.from}`]);
    const contact = await contactRepo.findOrCreateByNumber(sql, companyId, {
      number: msg.from,
      name: msg.pushName || msg.from,
      isGroup: Boolean(msg.isGroup),
      whatsappId,
    });
    let ticketId = (await ticketRepo.findActiveTicket(sql, companyId, contact.id, whatsappId))?.id ?? null;
    let ticketCreated = false;
    if (ticketId === null) {
      const single = connection.queues.length === 1 ? connection.queues[0]!.id : null;
      ticketId = await ticketRepo.insertTicketIfNone(sql, {
        companyId,
        contactId: contact.id,
        whatsappId,
        status: "pending",
        userId: null,
        queueId: single,
        isGroup: Boolean(msg.isGroup),
        originFromMe: Boolean(msg.fromMe),
      });
      ticketCreated = ticketId !== null;
      if (ticketId === null) ticketId = (await ticketRepo.findActiveTicket(sql, companyId, contact.id, whatsappId))!.id;
      if (ticketCreated && !msg.fromMe && connection.queues.length > 1) await ticketRepo.updateTicket(sql, companyId, ticketId, { chatbot: true });
    }
    let quotedMsgId: number | null = null;
    if (msg.quotedProviderId) {
      quotedMsgId = (await messageRepo.findByProviderId(sql, companyId, whatsappId, msg.quotedProviderId))?.id ?? null;
      if (quotedMsgId === null && /^\d+$/.test(msg.quotedProviderId)) {
        const byId = await sql.maybe<{ id: number }>("SELECT id FROM messages WHERE company_id = $1 AND id = $2 AND contact_id = $3", [
          companyId,
          Number(msg.quotedProviderId),
          contact.id,
        ]);
        quotedMsgId = byId?.id ?? null;
      }
    }
    const messageId = await messageRepo.insertMessage(sql, {
      companyId,
      ticketId,
      contactId: contact.id,
      whatsappId,
      providerId: msg.providerId,
      body: msg.body,
      fromMe: Boolean(msg.fromMe),
      mediaType: msg.mediaType,
      mediaPath,
      mediaName: msg.media?.fileName ?? null,
      mimetype: msg.media?.mimetype ?? null,
      ack: msg.fromMe ? 2 : 0,
      read: Boolean(msg.fromMe),
      quotedMsgId,
    });
    if (messageId === null) return null;
    await messageRepo.touchTicketWithMessage(sql, companyId, ticketId, messageId, messagePreview(msg.body, msg.mediaType, msg.media?.fileName), Boolean(msg.fromMe));
    return { messageId, ticketId, contact, ticketCreated };
  });

  if (!result) {
    const dup = (await messageRepo.findByProviderId(ctx.sql, companyId, whatsappId, msg.providerId))!;
    return { messageId: dup.id, ticketId: dup.ticket_id, contactId: 0, duplicate: true };
  }

  if (result.contact.created) {
    const full = await contactRepo.findContact(ctx.sql, companyId, result.contact.id);
    if (full) ctx.realtime.emit(rooms.company(companyId), channel.contact(companyId), { action: "create", contact: presentContact(full) });
  }
  const ticket = (await ticketRepo.findTicket(ctx.sql, companyId, result.ticketId))!;
  const message = (await messageRepo.findMessage(ctx.sql, companyId, result.messageId))!;
  if (result.ticketCreated) await emitTicketUpdate(ctx, ticket);
  await emitAppMessage(ctx, "create", presentMessage(message), ticket);

  if (!msg.fromMe) await routeToQueue(ctx, ticket, connection, msg.body, result.ticketCreated).catch((err: unknown) => {
    console.error("queue routing failed", err);
  });
  return { messageId: result.messageId, ticketId: result.ticketId, contactId: result.contact.id, duplicate: false };
}

function menuText(connection: whatsappRepo.WhatsappRow, ticket: TicketRow): string {
  const greeting = applyVariables(connection.greeting_message, { contactName: ticket.contact_name, protocol: ticketProtocol(ticket) });
  const options = connection.queues.map((q, i) => `*[ ${i + 1} ]* - ${q.name}`).join("\n");
  return greeting ? `${greeting}\n\n${options}` : options;
}

/**
 * Queue choice: one queue on the connection is assigned at once (its greeting is sent); several send
 * the connection's greeting with a numbered menu, and the contact's reply picks the queue. After
 * maxUseBotQueues unanswered menus the ticket stays pending without a queue.
 */
async function routeToQueue(
  ctx: AppContext,
  ticket: TicketRow,
  connection: whatsappRepo.WhatsappRow,
  body: string,
  created: boolean,
): Promise<void> {
  if (ticket.is_group || ticket.status === "closed") return;
  const vars = { contactName: ticket.contact_name, protocol: ticketProtocol(ticket) };
  if (created && connection.queues.length === 1) {
    const greeting = connection.queues[0]!.greetingMessage;
    if (greeting) await sendOutgoing(ctx, { ticket, body: applyVariables(greeting, vars), userId: null });
    return;
  }
  if (!ticket.chatbot || connection.queues.length < 2) return;
  if (created) {
    await sendOutgoing(ctx, { ticket, body: menuText(connection, ticket), userId: null });
    await ticketRepo.updateTicket(ctx.sql, ticket.company_id, ticket.id, { amount_used_bot_queues: 1 });
    return;
  }
  const choice = Number(body.trim());
  const queue = Number.isInteger(choice) && choice >= 1 ? connection.queues[choice - 1] : undefined;
  if (queue) {
    await ticketRepo.updateTicket(ctx.sql, ticket.company_id, ticket.id, { queue_id: queue.id, chatbot: false });
    const moved = (await ticketRepo.findTicket(ctx.sql, ticket.company_id, ticket.id))!;
    await emitTicketUpdate(ctx, moved, ticket);
    if (queue.greetingMessage) await sendOutgoing(ctx, { ticket: moved, body: applyVariables(queue.greetingMessage, vars), userId: null });
    return;
  }
  const max = connection.max_use_bot_queues || Infinity;
  if (ticket.amount_used_bot_queues < max) {
    await sendOutgoing(ctx, { ticket, body: menuText(connection, ticket), userId: null });
    await ticketRepo.updateTicket(ctx.sql, ticket.company_id, ticket.id, { amount_used_bot_queues: ticket.amount_used_bot_queues + 1 });
  } else {
    await ticketRepo.updateTicket(ctx.sql, ticket.company_id, ticket.id, { chatbot: false });
    await emitTicketUpdate(ctx, (await ticketRepo.findTicket(ctx.sql, ticket.company_id, ticket.id))!);
  }
}

/** An ack from a driver: raises the stored ack and tells the ticket's viewers. */
export async function applyAck(ctx: AppContext, companyId: number, whatsappId: number, providerId: string, ack: number): Promise<void> {
  const changed = await messageRepo.raiseAck(ctx.sql, companyId, whatsappId, providerId, ack);
  if (!changed) return;
  const message = await messageRepo.findMessage(ctx.sql, companyId, changed.id);
  const ticket = await ticketRepo.findTicket(ctx.sql, companyId, changed.ticket_id);
  if (message && ticket) await emitAppMessage(ctx, "update", presentMessage(message), ticket);
}

/** The sender edited a message: new body, isEdited, the ticket's preview when it was the last one. */
export async function applyEdit(ctx: AppContext, companyId: number, whatsappId: number, providerId: string, body: string): Promise<boolean> {
  const changed = await ctx.sql.maybe<{ id: number; ticket_id: number; media_type: string; media_name: string | null }>(
    `UPDATE messages SET body = $4, is_edited = true, updated_at = now()
      WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3 AND NOT is_deleted AND body IS DISTINCT FROM $4
      RETURNING id, ticket_id, media_type, media_name`,
    [companyId, whatsappId, providerId, body],
  );
  if (!changed) return false;
  const preview = messagePreview(body, changed.media_type, changed.media_name).slice(0, 1000);
  const last = await ctx.sql.exec("UPDATE tickets SET last_message = $3 WHERE company_id = $1 AND id = $2 AND last_message_id = $4", [
    companyId,
    changed.ticket_id,
    preview,
    changed.id,
  ]);
  const message = await messageRepo.findMessage(ctx.sql, companyId, changed.id);
  const ticket = await ticketRepo.findTicket(ctx.sql, companyId, changed.ticket_id);
  if (message && ticket) {
    await emitAppMessage(ctx, "update", presentMessage(message), ticket);
    if (last) await emitTicketUpdate(ctx, ticket);
  }
  return true;
}

/** The sender deleted a message for everyone: it stays, marked isDeleted. */
export async function applyRevoke(ctx: AppContext, companyId: number, whatsappId: number, providerId: string): Promise<boolean> {
  const changed = await ctx.sql.maybe<{ id: number; ticket_id: number }>(
    `UPDATE messages SET is_deleted = true, updated_at = now()
      WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3 AND NOT is_deleted
      RETURNING id, ticket_id`,
    [companyId, whatsappId, providerId],
  );
  if (!changed) return false;
  const message = await messageRepo.findMessage(ctx.sql, companyId, changed.id);
  const ticket = await ticketRepo.findTicket(ctx.sql, companyId, changed.ticket_id);
  if (message && ticket) await emitAppMessage(ctx, "update", presentMessage(message), ticket);
  return true;
}
