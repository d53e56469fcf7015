import { cleanMediaType } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { mediaStorage } from "../core/storage.js";
import { presentContact } from "../domains/contacts/presenter.js";
import * as contactRepo from "../domains/contacts/repository.js";
import { messagePreview, presentMessage } from "../domains/messages/presenter.js";
import * as messageRepo from "../domains/messages/repository.js";
import { sendOutgoing } from "../domains/messages/send-message.js";
import { emitAppMessage, emitTicketUpdate } from "../domains/tickets/events.js";
import * as ticketRepo from "../domains/tickets/repository.js";
import * as whatsappRepo from "../domains/whatsapp/repository.js";
import { AppError } from "../core/errors.js";
import type { Sql } from "../db/sql.js";
import { botsAnswer } from "./bots-answer.js";
import type { InboundMessage } from "./driver.js";
import type { InboundResult } from "./sink.js";
import { noteCampaignReplies } from "../domains/campaign-dispatch/replies.js";
import { takeRatingReply } from "./routing/closing.js";
import { touchExpiry } from "./routing/expiry.js";
import { isConnectionNumber } from "./routing/own-numbers.js";
import { decideRoute, ROUTING_COLUMNS, type RoutingDecision, type RoutingTicket } from "./routing/queue-routing.js";
import { reportedToCaller } from "../core/ignore.js";
import { contactKey, contactKeys } from "../core/phone.js";
import { resolveWhatsappContact, type ResolvedContact } from "../domains/contacts/identity.js";
import { emitContactEvent } from "../domains/contacts/events.js";

/** Tells the company's screens about a contact an inbound message created, changed or merged. */
export async function emitContactChanges(ctx: AppContext, companyId: number, c: Pick<ResolvedContact, "id" | "created" | "merged" | "changed">): Promise<void> {
  for (const id of c.merged) emitContactEvent(ctx, companyId, { action: "delete", contactId: id });
  if (!c.created && !c.changed && !c.merged.length) return;
  const full = await contactRepo.findContact(ctx.sql, companyId, c.id);
  if (full) emitContactEvent(ctx, companyId, { action: c.created ? "create" : "update", contact: presentContact(full) });
}

export interface Connection {
  companyId: number;
  whatsappId: number;
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
  const tail = run.catch(reportedToCaller);
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return run;
}

/**
 * What a caller handling many messages of one connection at once (a webhook delivery) may have read
 * already, so each message does not read it again.
 */
export interface InboundPrepared {
  connection: whatsappRepo.WhatsappRow;
  /** The company's connection numbers. */
  ownNumbers: ReadonlySet<string>;
  /** The provider id is known not to be stored yet (the insert's unique index still has the last word). */
  checkedNew?: boolean;
}

/** A message's conversation key: its sender in the stored form (both forms of a Brazilian mobile are one). */
export const senderKey = (msg: InboundMessage) => contactKey(msg.from, msg.isGroup);

export function processInbound(ctx: AppContext, conn: Connection, msg: InboundMessage, prepared?: InboundPrepared): Promise<InboundResult> {
  return serialised(`${conn.whatsappId}:${senderKey(msg)}`, () => handleInbound(ctx, conn, msg, prepared));
}

/** The numbers of the company's connections, in every form WhatsApp may use (for a batch of messages: see InboundPrepared). */
export async function connectionNumbers(sql: Sql, companyId: number): Promise<Set<string>> {
  const rows = await sql.many<{ number: string }>("SELECT number FROM whatsapps WHERE company_id = $1 AND number <> ''", [companyId]);
  return new Set(rows.flatMap((r) => contactKeys(r.number)));
}

/** The active ticket of a contact on a connection, locked, with what routing reads ($3 = timeUseBotQueues). */
function lockActiveTicket(sql: Sql, companyId: number, contactId: number, whatsappId: number, timeUseBotQueues: number) {
  return sql.maybe<RoutingTicket>(
    `SELECT ${ROUTING_COLUMNS} FROM tickets
      WHERE company_id = $1 AND contact_id = $2 AND whatsapp_id = $4 AND status <> 'closed' FOR UPDATE`,
    [companyId, contactId, timeUseBotQueues, whatsappId],
  );
}

async function handleInbound(ctx: AppContext, conn: Connection, msg: InboundMessage, prepared?: InboundPrepared): Promise<InboundResult> {
  const { companyId, whatsappId } = conn;
  const existing = prepared?.checkedNew ? null : await messageRepo.findByProviderId(ctx.sql, companyId, whatsappId, msg.providerId);
  if (existing) {
    const t = await ticketRepo.findTicket(ctx.sql, companyId, existing.ticket_id);
    return { messageId: existing.id, ticketId: existing.ticket_id, contactId: t?.contact_id ?? 0, duplicate: true };
  }
  // Two connections of the company talking to each other are not a customer conversation.
  const own = prepared ? prepared.ownNumbers.has(senderKey(msg)) : await isConnectionNumber(ctx.sql, companyId, msg.from);
  if (!msg.isGroup && own) return { messageId: 0, ticketId: 0, contactId: 0, duplicate: false, ignored: true };
  const connection = prepared?.connection ?? (await whatsappRepo.findWhatsapp(ctx.sql, companyId, whatsappId));
  if (!connection) throw new Error(`connection ${whatsappId} not found`);
  const mediaPath = msg.media
    ? await mediaStorage(ctx.config.dataDir).put(companyId, msg.media.data, { fileName: msg.media.fileName, mimetype: msg.media.mimetype })
    : null;
  const fromMe = Boolean(msg.fromMe);

  const result = await ctx.sql.tx(async (sql) => {
    // one lock per identity the message carries (number and user id), taken in one order
    for (const key of [senderKey(msg), msg.userId].filter((k): k is string => Boolean(k)).sort()) {
      await sql.exec("SELECT pg_advisory_xact_lock(727100, hashtext($1))", [`${whatsappId}:${key}`]);
    }
    const contact = await resolveWhatsappContact(sql, companyId, {
      address: msg.from,
      userId: msg.userId,
      name: msg.pushName,
      isGroup: Boolean(msg.isGroup),
      whatsappId,
      fromWhatsapp: true,
    });
    let ticket = await lockActiveTicket(sql, companyId, contact.id, whatsappId, connection.time_use_bot_queues);
    let ticketCreated = false;
    let rated: { ticketId: number; rate: number } | null = null;
    if (ticket === null) {
      if (!fromMe && !msg.isGroup) rated = await takeRatingReply(sql, companyId, contact.id, whatsappId, msg.body);
      if (!rated) {
        const single = connection.queues.length === 1 ? connection.queues[0]!.id : null;
        const created = await ticketRepo.insertTicketIfNone(sql, {
          companyId,
          contactId: contact.id,
          whatsappId,
          status: "pending",
          userId: null,
          queueId: single,
          isGroup: Boolean(msg.isGroup),
          originFromMe: fromMe,
        });
        ticketCreated = created !== null;
        ticket = await lockActiveTicket(sql, companyId, contact.id, whatsappId, connection.time_use_bot_queues);
        if (!ticket) throw new Error("inbound: the contact's active ticket vanished");
      }
    }
    const ticketId = rated ? rated.ticketId : ticket!.id;
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
      fromMe,
      mediaType: msg.mediaType,
      mediaPath,
      mediaName: msg.media?.fileName ?? null,
      mimetype: msg.media ? cleanMediaType(msg.media.mimetype) : null,
      ack: fromMe ? 2 : 0,
      // a rating reply joins the closed ticket's history without making it unread
      read: fromMe || rated !== null,
      quotedMsgId,
      createdAt: msg.timestamp ?? null,
      referral: msg.referral ?? null,
      mediaUnavailable: msg.mediaUnavailable ?? false,
      unsupported: msg.unsupported ?? false,
    });
    if (messageId === null) return null;
    if (rated) return { messageId, ticketId, contact, ticketCreated, rated, decision: null, previous: null };

    await messageRepo.touchTicketWithMessage(sql, companyId, ticketId, messageId, messagePreview(msg.body, msg.mediaType, msg.media?.fileName, msg.unsupported), fromMe);
    await touchExpiry(ctx, sql, companyId, ticketId, connection.expires_ticket);
    let decision: RoutingDecision | null = null;
    // a campaign recipient answering the number that sent it (domains/campaign-dispatch/replies.ts)
    if (!fromMe && !msg.isGroup) await noteCampaignReplies(sql, companyId, whatsappId, [{ phone: senderKey(msg), at: msg.timestamp ?? new Date() }]);
    if (!fromMe) {
      decision = await decideRoute(sql, ticket!, connection, msg.body, ticketCreated);
      if (Object.keys(decision.patch).length) await ticketRepo.updateTicket(sql, companyId, ticketId, decision.patch);
    }
    return { messageId, ticketId, contact, ticketCreated, rated: null, decision, previous: ticket };
  });

  if (!result) {
    const dup = (await messageRepo.findByProviderId(ctx.sql, companyId, whatsappId, msg.providerId))!;
    return { messageId: dup.id, ticketId: dup.ticket_id, contactId: 0, duplicate: true };
  }

  await emitContactChanges(ctx, companyId, result.contact);
  const [ticket, message] = await Promise.all([
    ticketRepo.findTicket(ctx.sql, companyId, result.ticketId).then((r) => r!),
    messageRepo.findMessage(ctx.sql, companyId, result.messageId).then((r) => r!),
  ]);
  const moved = result.decision !== null && Object.keys(result.decision.patch).length > 0;
  // A new ticket reaches its audience with its first message (appMessage carries the ticket); an
  // existing one that moved also tells those who saw it before (e.g. allTicket users of a queue-less
  // pending ticket) that it left them.
  const p = result.previous;
  if (moved && !result.ticketCreated && p) {
    await emitTicketUpdate(ctx, ticket, { id: p.id, company_id: companyId, status: p.status, queue_id: p.queue_id, queue_name: null, transfer_queue_id: null, user_id: null });
  }
  await emitAppMessage(ctx, "create", presentMessage(message), ticket);

  for (const text of result.decision?.sends ?? []) {
    try {
      await sendOutgoing(ctx, { ticket, body: text, userId: null });
    } catch (err) {
      // The customer's message is stored; an automatic answer that cannot go out is only logged.
      if (!(err instanceof AppError)) ctx.log.error({ err, ticketId: ticket.id, companyId: ticket.company_id }, "automatic message failed");
    }
  }
  // a bot or an AI prompt answers while no agent has the ticket (bots-answer.ts)
  if (!fromMe && !result.rated) await botsAnswer(ctx, ticket, result.messageId);
  return {
    messageId: result.messageId,
    ticketId: result.ticketId,
    contactId: result.contact.id,
    duplicate: false,
    ...(result.rated ? { rating: result.rated.rate } : {}),
  };
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

/**
 * The contact reacted to a stored message of their conversation (`emoji` empty: the reaction was
 * removed): each sender keeps one reaction per message, as WhatsApp shows them. False when no such
 * message is stored here.
 */
export async function applyReaction(
  ctx: AppContext,
  companyId: number,
  whatsappId: number,
  providerId: string,
  reaction: { from: string; emoji: string },
): Promise<boolean> {
  const changed = await ctx.sql.maybe<{ id: number; ticket_id: number }>(
    `UPDATE messages
        SET reactions = (SELECT COALESCE(jsonb_agg(r), '[]'::jsonb) FROM jsonb_array_elements(reactions) r WHERE r->>'from' <> $4)
                        || CASE WHEN $5 = '' THEN '[]'::jsonb ELSE jsonb_build_array(jsonb_build_object('from', $4::text, 'emoji', $5::text)) END,
            updated_at = now()
      WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3
        -- only a message of the reacting contact's own conversation
        AND contact_id = (SELECT id FROM contacts WHERE company_id = $1 AND number = $4)
      RETURNING id, ticket_id`,
    [companyId, whatsappId, providerId, reaction.from, reaction.emoji],
  );
  if (!changed) return false;
  const message = await messageRepo.findMessage(ctx.sql, companyId, changed.id);
  const ticket = await ticketRepo.findTicket(ctx.sql, companyId, changed.ticket_id);
  if (message && ticket) await emitAppMessage(ctx, "update", presentMessage(message), ticket);
  return true;
}
