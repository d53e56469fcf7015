import { ERROR_STATUS, type ErrorCode, type MediaType, cleanMediaType } from "@atende/shared";
import type { SentMessage, TemplateMessage, WhatsappDriver } from "../../channels/driver.js";
import { channels } from "../../channels/manager.js";
import { RetryLaterError } from "../../channels/send-errors.js";
import { assertFence, fenceCondition, LeaseLostError, type LeaseFence } from "../../channels/ownership.js";
import { touchExpiry } from "../../channels/routing/expiry.js";
import { assertNotConnectionNumber } from "../../channels/routing/own-numbers.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { mediaStorage } from "../../core/storage.js";
import type { Sql } from "../../db/sql.js";
import { rememberWhatsappId } from "../contacts/identity.js";
import { emitAppMessage } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import type { TicketRow } from "../tickets/repository.js";
import { messagePreview } from "./presenter.js";
import { presentMessage } from "./presenter.js";
import * as repo from "./repository.js";
import { recordRetryableFailure } from "./send-retry.js";

export interface OutgoingFile {
  data: Buffer;
  fileName: string;
  mimetype: string;
}

export function mediaTypeOf(mimetype: string): MediaType {
  const top = mimetype.split("/")[0];
  if (top === "image" || top === "audio" || top === "video") return top;
  return "application";
}

export interface SendInput {
  ticket: TicketRow;
  body: string;
  /** The agent; null for automatic messages (greeting, menu, completion). */
  userId: number | null;
  file?: OutgoingFile;
  /** An already-stored attachment (quick message media), reused without copying. */
  stored?: { path: string; fileName: string; mimetype: string };
  quotedMsgId?: number | null;
  /** An approved template (official API): sent as such, also outside the 24-hour window; `body` is its rendered text. */
  template?: TemplateMessage;
}

/** How long a send waits for the process that runs the connection before answering with the queued row. */
export const REMOTE_SEND_WAIT_MS = 10_000;

interface Delivery {
  companyId: number;
  id: number;
  to: string;
  body: string;
  media: { data: Buffer; fileName: string; mimetype: string; type: MediaType } | null;
  quotedProviderId?: string;
  template?: TemplateMessage | null;
}

/**
 * Sends one message through the ticket's connection. The row is stored first (ack 0, shown as
 * pending; send_status `pending`, or `queued` when another server process runs the connection), with
 * the ticket's last message; then the driver sends it and the row gets its provider id and ack 1. A
 * refused send leaves the row `failed` (ack 0, send_error) and answers ERR_SENDING_WAPP_MSG (or the
 * driver's own code), so a message is never sent without being recorded. A send the provider refused
 * for now (RetryLaterError) leaves it `retrying`, shown as pending, and a job tries again
 * (send-retry.ts). Refusals known before any send (not connected, a connection's own number, the
 * official 24-hour window and limits, also for a message that goes through the outbox) store nothing.
 */
export async function sendOutgoing(ctx: AppContext, input: SendInput): Promise<repo.MessageRow> {
  const { ticket } = input;
  const companyId = ticket.company_id;
  const target = await channels(ctx).sendTarget(companyId, ticket.whatsapp_id);
  const to = ticket.contact_address;
  if (!ticket.is_group) await assertNotConnectionNumber(ctx.sql, companyId, to);
  let quotedProviderId: string | undefined;
  if (input.quotedMsgId) {
    const quoted = await ctx.sql.maybe<{ provider_id: string | null; contact_id: number }>(
      "SELECT provider_id, contact_id FROM messages WHERE company_id = $1 AND id = $2",
      [companyId, input.quotedMsgId],
    );
    if (!quoted || quoted.contact_id !== ticket.contact_id) throw new AppError("ERR_VALIDATION", "Mensagem citada não encontrada");
    quotedProviderId = quoted.provider_id ?? undefined;
  }
  let storedData: Buffer | null = null;
  if (input.stored) {
    storedData = await readStored(ctx, input.stored.path);
    if (!storedData) throw new AppError("ERR_VALIDATION", "Arquivo não encontrado");
  }
  const precheck = target.kind === "local" ? target.driver.precheck?.bind(target.driver) : target.precheck;
  if (precheck && !input.template) {
    const file = input.file ?? (input.stored && storedData ? { data: storedData, mimetype: input.stored.mimetype } : null);
    await precheck(to, { body: input.body, media: file ? { data: file.data, mimetype: cleanMediaType(file.mimetype) } : undefined });
  }

  const storage = mediaStorage(ctx.config.dataDir);
  let media: (Delivery["media"] & { path: string }) | null = null;
  if (input.file) {
    const { data, fileName } = input.file;
    const mimetype = cleanMediaType(input.file.mimetype);
    const path = await storage.put(companyId, data, { fileName, mimetype });
    media = { data, fileName, mimetype, type: mediaTypeOf(mimetype), path };
  } else if (input.stored && storedData) {
    const s = input.stored;
    const mimetype = cleanMediaType(s.mimetype);
    media = { data: storedData, fileName: s.fileName, mimetype, type: mediaTypeOf(mimetype), path: s.path };
  }

  const id = await ctx.sql.tx(async (sql) => {
    // the ticket first: messages sent at once to one ticket get their ids and commit in the same order,
    // so the owner's outbox (claimed in id order) never sees a later one before an earlier one
    await sql.exec("SELECT 1 FROM tickets WHERE company_id = $1 AND id = $2 FOR NO KEY UPDATE", [companyId, ticket.id]);
    const messageId = await insertOutgoing(sql, {
      companyId,
      ticketId: ticket.id,
      contactId: ticket.contact_id,
      whatsappId: ticket.whatsapp_id!,
      body: input.body,
      mediaType: media?.type ?? "chat",
      mediaPath: media?.path ?? null,
      mediaName: media?.fileName ?? null,
      mimetype: media?.mimetype ?? null,
      quotedMsgId: input.quotedMsgId ?? null,
      userId: input.userId,
      status: target.kind === "local" ? "pending" : "queued",
      template: input.template ?? null,
    });
    await repo.touchTicketWithMessage(sql, companyId, ticket.id, messageId, messagePreview(input.body, media?.type ?? "chat", media?.fileName), true);
    await touchExpiry(ctx, sql, companyId, ticket.id, target.expiresTicket);
    return messageId;
  });

  if (target.kind === "remote") {
    const outcome = await waitForOwner(ctx.sql, companyId, id);
    const row = await emitCreated(ctx, companyId, ticket.id, id);
    if (outcome?.send_status === "failed") throw errorOf(outcome.send_error);
    return row;
  }
  try {
    const handedBack = await deliver(ctx, target.driver, { companyId, id, to, body: input.body, media, quotedProviderId, template: input.template });
    if (handedBack) {
      // taken over mid-request: the connection's new holder sends it; answered like a remote send
      const outcome = await waitForOwner(ctx.sql, companyId, id);
      const row = await emitCreated(ctx, companyId, ticket.id, id);
      if (outcome?.send_status === "failed") throw errorOf(outcome.send_error);
      return row;
    }
  } catch (err) {
    await emitCreated(ctx, companyId, ticket.id, id);
    throw err;
  }
  return emitCreated(ctx, companyId, ticket.id, id);
}

async function readStored(ctx: AppContext, path: string): Promise<Buffer | null> {
  const opened = await mediaStorage(ctx.config.dataDir).open(path);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface OutgoingRow {
  companyId: number;
  ticketId: number;
  contactId: number;
  whatsappId: number;
  body: string;
  mediaType: MediaType;
  mediaPath: string | null;
  mediaName: string | null;
  mimetype: string | null;
  quotedMsgId: number | null;
  userId: number | null;
  status: "pending" | "queued";
  template: TemplateMessage | null;
}

async function insertOutgoing(sql: Sql, m: OutgoingRow): Promise<number> {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, media_type, media_path, media_name, mimetype,
                           ack, read, quoted_msg_id, user_id, send_status, send_template)
     VALUES ($1, $2, $3, $4, $5, true, $6, $7, $8, $9, 0, true, $10, $11, $12, $13) RETURNING id`,
    [m.companyId, m.ticketId, m.contactId, m.whatsappId, m.body, m.mediaType, m.mediaPath, m.mediaName, m.mimetype, m.quotedMsgId, m.userId, m.status, m.template],
  );
  return row.id;
}

/**
 * The driver call and its outcome on the stored row: sent, retrying (refused for now) or failed. A driver
 * whose lease was taken over (its fence is gone, checked just before the send; the sandbox's own send is
 * fenced in the same statement) sends nothing: the row goes back to the outbox (`queued`), which the
 * connection's current holder sends once.
 */
async function deliver(ctx: AppContext, driver: WhatsappDriver, m: Delivery): Promise<"handedBack" | undefined> {
  let sent: SentMessage;
  try {
    if (driver.fence) await assertFence(ctx.sql, driver.fence);
    sent = await callDriver(driver, m);
  } catch (err) {
    if (err instanceof LeaseLostError) {
      await handBack(ctx.sql, m.companyId, m.id);
      ctx.log.warn({ companyId: m.companyId, messageId: m.id, whatsappId: err.fence.whatsappId }, "the connection was taken over before this send: the message goes to the new holder's outbox");
      return "handedBack";
    }
    if (err instanceof RetryLaterError && (await recordRetryableFailure(ctx, m.companyId, m.id, err)) === "retrying") return;
    if (err instanceof RetryLaterError) throw err;
    const e = err instanceof AppError ? err : new AppError("ERR_SENDING_WAPP_MSG", "Não foi possível enviar a mensagem");
    await markFailed(ctx.sql, m.companyId, m.id, e);
    throw e;
  }
  await markSent(ctx.sql, m.companyId, m.id, sent.providerId);
  if (sent.waId) await rememberWhatsappId(ctx.sql, m.companyId, m.id, sent.waId);
}

function callDriver(driver: WhatsappDriver, m: Delivery): Promise<SentMessage> {
  if (m.template) {
    if (!driver.sendTemplate) throw new AppError("ERR_VALIDATION", "Templates só podem ser enviados por conexões oficiais");
    return driver.sendTemplate(m.to, m.template);
  }
  const opts = { quotedProviderId: m.quotedProviderId };
  if (m.media) return driver.sendMedia(m.to, { ...m.media, mediaType: m.media.type, caption: m.body || undefined }, opts);
  return driver.sendText(m.to, m.body, opts);
}

async function markSent(sql: Sql, companyId: number, id: number, providerId: string): Promise<void> {
  try {
    await sql.exec(
      `UPDATE messages SET provider_id = $3, ack = GREATEST(ack, 1), send_status = 'sent', send_error = NULL, send_attempts = send_attempts + 1,
                          next_attempt_at = NULL, updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [companyId, id, providerId],
    );
  } catch (err) {
    if ((err as { code?: string }).code !== "23505") throw err;
    // The provider's echo of this very message was stored first: this row stays the agent's, without the id.
    await sql.exec(
      `UPDATE messages SET ack = GREATEST(ack, 1), send_status = 'sent', send_error = NULL, send_attempts = send_attempts + 1, next_attempt_at = NULL,
                          updated_at = now()
        WHERE company_id = $1 AND id = $2`,
      [companyId, id],
    );
  }
}

/** A message this process may no longer send (its lease is gone): back to the outbox, untouched otherwise. */
async function handBack(sql: Sql, companyId: number, id: number): Promise<void> {
  await sql.exec("UPDATE messages SET send_status = 'queued', updated_at = now() WHERE company_id = $1 AND id = $2 AND send_status IN ('pending', 'sending')", [
    companyId,
    id,
  ]);
}

async function markFailed(sql: Sql, companyId: number, id: number, err: AppError): Promise<void> {
  await sql.exec(
    `UPDATE messages SET send_status = 'failed', send_error = $3, ack = 0, send_attempts = send_attempts + 1, next_attempt_at = NULL, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [companyId, id, `${err.code}: ${err.message}`.slice(0, 1000)],
  );
}

function errorOf(sendError: string | null): AppError {
  const m = /^(ERR_[A-Z_]+): (.*)$/s.exec(sendError ?? "");
  if (m && Object.prototype.hasOwnProperty.call(ERROR_STATUS, m[1]!)) return new AppError(m[1] as ErrorCode, m[2]);
  return new AppError("ERR_SENDING_WAPP_MSG", "Não foi possível enviar a mensagem");
}

async function emitCreated(ctx: AppContext, companyId: number, ticketId: number, id: number): Promise<repo.MessageRow> {
  const row = (await repo.findMessage(ctx.sql, companyId, id))!;
  const fresh = (await ticketRepo.findTicket(ctx.sql, companyId, ticketId))!;
  await emitAppMessage(ctx, "create", presentMessage(row), fresh);
  return row;
}

/** A queued message: waits (bounded) until the owner process has sent or refused it, or it waits for another attempt. */
async function waitForOwner(sql: Sql, companyId: number, id: number) {
  const until = Date.now() + REMOTE_SEND_WAIT_MS;
  let delay = 25;
  for (;;) {
    const row = await sql.maybe<{ send_status: string; send_error: string | null }>(
      "SELECT send_status, send_error FROM messages WHERE company_id = $1 AND id = $2",
      [companyId, id],
    );
    if (!row || row.send_status === "sent" || row.send_status === "failed" || row.send_status === "retrying" || Date.now() > until) return row;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 200);
  }
}

// ----- the owner's side: messages queued by other processes -----

/**
 * Takes up to `limit` queued messages of a connection (oldest first); each is taken by one process only,
 * and only by the current holder of the connection's lease (fenced: a former holder takes nothing).
 */
export async function claimQueued(sql: Sql, fence: LeaseFence, limit: number): Promise<{ id: number; company_id: number }[]> {
  const rows = await sql.many<{ id: number; company_id: number }>(
    `UPDATE messages SET send_status = 'sending', updated_at = now()
      WHERE id IN (SELECT id FROM messages WHERE whatsapp_id = $1 AND send_status = 'queued' ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
        AND ${fenceCondition("$1", "$3")}
      RETURNING id, company_id`,
    [fence.whatsappId, limit, fence.epoch],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** Sends a claimed (`sending`) message with this process's driver and tells the ticket's viewers. */
export async function deliverQueued(ctx: AppContext, driver: WhatsappDriver, companyId: number, id: number): Promise<void> {
  const m = await ctx.sql.maybe<{
    ticket_id: number;
    body: string;
    media_type: MediaType;
    media_path: string | null;
    media_name: string | null;
    mimetype: string | null;
    number: string;
    quoted_provider_id: string | null;
    send_template: TemplateMessage | null;
  }>(
    `SELECT m.ticket_id, m.body, m.media_type, m.media_path, m.media_name, m.mimetype, COALESCE(c.wa_id, c.number) AS number, q.provider_id AS quoted_provider_id,
            m.send_template
       FROM messages m
       JOIN contacts c ON c.company_id = m.company_id AND c.id = m.contact_id
       LEFT JOIN messages q ON q.company_id = m.company_id AND q.id = m.quoted_msg_id
      WHERE m.company_id = $1 AND m.id = $2 AND m.send_status = 'sending'`,
    [companyId, id],
  );
  if (!m) return;
  try {
    let media: Delivery["media"] = null;
    if (m.media_path) {
      const data = await readStored(ctx, m.media_path);
      if (!data) {
        await markFailed(ctx.sql, companyId, id, new AppError("ERR_SENDING_WAPP_MSG", "Arquivo não encontrado"));
        return;
      }
      const mimetype = m.mimetype ?? "application/octet-stream";
      media = { data, fileName: m.media_name ?? "arquivo", mimetype, type: m.media_type };
    }
    // deliver records a failure on the message row (failed, with the error), which the update below shows
    const delivery = { companyId, id, to: m.number, body: m.body, media, quotedProviderId: m.quoted_provider_id ?? undefined, template: m.send_template };
    await deliver(ctx, driver, delivery).catch(
      (err: unknown) => ctx.log.warn({ err, companyId, messageId: id, ticketId: m.ticket_id }, "queued message not sent"),
    );
  } finally {
    const row = await repo.findMessage(ctx.sql, companyId, id);
    const ticket = await ticketRepo.findTicket(ctx.sql, companyId, m.ticket_id);
    if (row && ticket) await emitAppMessage(ctx, "update", presentMessage(row), ticket);
  }
}

/**
 * A process taking over a connection: messages another process was sending more than a minute ago
 * (it stopped mid-send) are marked failed rather than sent a second time. Messages waiting for another
 * attempt (`retrying`) are left to their durable job.
 */
export async function failInterrupted(ctx: AppContext, whatsappId: number): Promise<void> {
  await ctx.sql.exec(
    `UPDATE messages SET send_status = 'failed', send_error = 'ERR_SENDING_WAPP_MSG: interrompido', ack = 0, updated_at = now()
      WHERE whatsapp_id = $1 AND send_status IN ('pending', 'sending') AND updated_at < now() - interval '1 minute'`,
    [whatsappId],
  );
}
