import { z } from "zod";
import { GraphClient } from "../../channels/cloud-api/graph-client.js";
import { cloudSender, IGNORED_TYPES, senderNames, toInboundMessage, UPDATE_TYPES } from "../../channels/cloud-api/inbound-message.js";
import type { CloudMessage, CloudStatus, MessagesValue } from "../../channels/cloud-api/webhook-types.js";
import type { InboundMessage } from "../../channels/driver.js";
import { applyAck, connectionNumbers, emitContactChanges } from "../../channels/inbound.js";
import { contactKey } from "../../core/phone.js";
import { changeContactNumber, changeContactUserId } from "../contacts/identity.js";
import { processInboundBatch } from "../../channels/inbound-batch.js";
import type { AppContext } from "../../core/context.js";
import type { BusinessSecrets } from "../businesses/repository.js";
import { presentMessage } from "../messages/presenter.js";
import * as messageRepo from "../messages/repository.js";
import * as officialRepo from "../official-whatsapp/repository.js";
import { emitAppMessage } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import * as whatsappRepo from "../whatsapp/repository.js";
import type { WebhookLookups } from "./lookups.js";
import { applyCloudUpdates } from "./process-updates.js";
import { applyCampaignWebhookStatuses } from "../campaign-dispatch/webhook-statuses.js";
import { noteCampaignReplies } from "../campaign-dispatch/replies.js";
import { campaignNotifier } from "../campaign-dispatch/events.js";

/** Meta's statuses as the product's ack levels (2 sent, 3 delivered, 4 read, 5 voice note played); failed is 0. */
export const STATUS_ACK: Record<string, number> = { sent: 2, delivered: 3, read: 4, played: 5, failed: 0 };

/** A status for a message not stored yet (the send is still recording it): tried again a few times. */
export const STATUS_RETRY_JOB = "official.status-retry";
export const statusRetryPayload = z.object({
  companyId: z.number().int(),
  whatsappId: z.number().int(),
  providerId: z.string(),
  attempt: z.number().int().min(1),
});
const STATUS_RETRY_LIMIT = 6;

interface Target {
  companyId: number;
  whatsappId: number;
}

/**
 * One `messages` change: every message (to the inbound pipeline) and every status (acks). What all its
 * messages need is read once (the connection, the company's own numbers, which ids are stored
 * already) and the 24-hour windows are moved in one statement; media downloads run concurrently and
 * the messages are then stored together (processInboundBatch), each customer's in delivery order.
 */
export async function processMessagesChange(
  ctx: AppContext,
  lookups: WebhookLookups,
  business: BusinessSecrets,
  value: MessagesValue,
  opts: { giveUpMedia?: boolean } = {},
): Promise<void> {
  const phoneNumberId = value.metadata?.phone_number_id;
  if (!phoneNumberId) return;
  const number = await lookups.number(business, phoneNumberId);
  if (!number) return; // a number not synced here: nothing to attach it to
  const target = { companyId: business.company_id, whatsappId: number.whatsapp_id };
  const nameOf = senderNames(value.contacts);
  let client: GraphClient | undefined;
  const graph = () => (client ??= new GraphClient(ctx.config.whatsappGraphUrl, business.access_token));
  let failure: unknown = null;

  const messages = (value.messages ?? []).filter((m) => cloudSender(m) && m.id);
  if (messages.length) {
    // a customer's new number or user id first, so the messages find the contact where it now is
    await applyIdentityChanges(ctx, target, messages);
    // campaign replies: the first message of a recipient after a campaign send (one statement)
    try {
      const replies = messages.filter((m) => m.type !== "system").map((m) => ({
        phone: contactKey(cloudSender(m)!.from),
        at: m.timestamp ? new Date(Number(m.timestamp) * 1000) : new Date(),
      }));
      const replied = await noteCampaignReplies(ctx.sql, target.companyId, target.whatsappId, replies);
      if (replied.length) campaignNotifier(ctx).changed(replied);
    } catch (err) {
      failure ??= err;
    }
    const wanted = messages.filter((m) => !IGNORED_TYPES.has(m.type) && !UPDATE_TYPES.has(m.type));
    const updates = messages.filter((m) => UPDATE_TYPES.has(m.type));
    const [, storedRows, connection, ownNumbers] = await Promise.all([
      // Any message from the customer (a reaction too) opens the 24-hour window.
      ctx.sql.exec(
        `INSERT INTO official_conversations (company_id, whatsapp_id, contact_number, last_inbound_at)
         SELECT $1, $2, n, LEAST(max(at), now()) FROM unnest($3::text[], $4::timestamptz[]) AS x(n, at) GROUP BY n
         ON CONFLICT (company_id, whatsapp_id, contact_number) DO UPDATE SET last_inbound_at = GREATEST(official_conversations.last_inbound_at, EXCLUDED.last_inbound_at)`,
        [
          target.companyId,
          target.whatsappId,
          messages.map((m) => contactKey(cloudSender(m)!.from)),
          messages.map((m) => (m.timestamp ? new Date(Number(m.timestamp) * 1000) : new Date())),
        ],
      ),
      // A retry of an already stored message downloads nothing again.
      ctx.sql.many<{ provider_id: string }>(
        "SELECT provider_id FROM messages WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = ANY($3::text[])",
        [target.companyId, target.whatsappId, wanted.map((m) => m.id)],
      ),
      whatsappRepo.findWhatsapp(ctx.sql, target.companyId, target.whatsappId),
      connectionNumbers(ctx.sql, target.companyId),
    ]);
    const stored = new Set(storedRows.map((r) => r.provider_id));
    const fresh = wanted.filter((m) => !stored.has(m.id));
    if (fresh.length && connection) {
      // media downloads run concurrently; the messages then go in delivery order
      const converted = new Map<CloudMessage, InboundMessage>();
      await Promise.all(
        fresh.map(async (msg) => {
          try {
            const inbound = await toInboundMessage(msg, nameOf(cloudSender(msg)!), graph, { giveUpMedia: opts.giveUpMedia, log: ctx.log });
            if (inbound) converted.set(msg, inbound);
          } catch (err) {
            failure ??= err;
          }
        }),
      );
      const inbound = fresh.map((m) => converted.get(m)).filter((m): m is InboundMessage => m !== undefined);
      try {
        await processInboundBatch(ctx, target, inbound, { connection, ownNumbers, checkedNew: true });
      } catch (err) {
        failure ??= err;
      }
    }
    // after the messages they may name (an edit or reaction in the same delivery as its message)
    if (updates.length && connection) {
      try {
        const orphans = await applyCloudUpdates(ctx, target, updates, nameOf, graph, { giveUpMedia: opts.giveUpMedia, log: ctx.log });
        if (orphans.length) await processInboundBatch(ctx, target, orphans, { connection, ownNumbers });
      } catch (err) {
        failure ??= err;
      }
    }
  }
  // campaign messages have no message row: their statuses go to the campaign rows (one batch)
  let campaignIds = new Set<string>();
  try {
    campaignIds = await applyCampaignWebhookStatuses(ctx, target.companyId, value.statuses ?? []);
  } catch (err) {
    failure ??= err;
  }
  for (const status of value.statuses ?? []) {
    if (campaignIds.has(status.id)) continue;
    try {
      await processStatus(ctx, target, status);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
}

/**
 * WhatsApp's identity notices: `user_changed_number` moves the contact (and its history) to the new
 * number, `user_changed_user_id` replaces its business-scoped user id. The system message itself is
 * then stored like any other, in the moved contact's ticket.
 */
async function applyIdentityChanges(ctx: AppContext, target: Target, messages: CloudMessage[]): Promise<void> {
  for (const m of messages) {
    const system = m.type === "system" ? m.system : undefined;
    if (system?.type === "user_changed_number") {
      const newNumber = system.wa_id ?? system.new_wa_id;
      if (!newNumber || !m.from) continue;
      const moved = await ctx.sql.tx((sql) =>
        changeContactNumber(sql, target.companyId, { from: m.from!, previousUserId: system.previous_user_id, newNumber, newUserId: system.user_id }),
      );
      if (moved) await emitContactChanges(ctx, target.companyId, moved);
    } else if (system?.type === "user_changed_user_id" && system.previous_user_id && system.user_id) {
      const id = await changeContactUserId(ctx.sql, target.companyId, system.previous_user_id, system.user_id);
      if (id) await emitContactChanges(ctx, target.companyId, { id, created: false, merged: [], changed: true });
    }
  }
}

async function processStatus(ctx: AppContext, target: Target, s: CloudStatus): Promise<void> {
  const ack = STATUS_ACK[s.status];
  if (ack === undefined || !s.id) return;
  const error = s.errors?.[0];
  await officialRepo.saveMessageStatus(ctx.sql, {
    ...target,
    providerId: s.id,
    status: s.status,
    ack,
    errorCode: error?.code ?? null,
    errorTitle: error?.title ?? error?.message ?? "",
    errorDetail: error?.error_data?.details ?? "",
  });
  const applied = await applyStoredStatus(ctx, target, s.id);
  if (!applied) await ctx.jobs.send(STATUS_RETRY_JOB, { ...target, providerId: s.id, attempt: 1 }, { startAfter: Date.now() + 2000 });
}

/**
 * Applies the best status recorded for a sent message: the highest ack (never lower than the stored
 * one), or the failure when it was never delivered. False when the message row does not exist yet.
 */
export async function applyStoredStatus(ctx: AppContext, target: Target, providerId: string): Promise<boolean> {
  const stored = await ctx.sql.maybe<{ status: string; ack: number; error_code: number | null; error_title: string; error_detail: string }>(
    "SELECT status, ack, error_code, error_title, error_detail FROM official_message_statuses WHERE company_id = $1 AND whatsapp_id = $2 AND provider_id = $3",
    [target.companyId, target.whatsappId, providerId],
  );
  if (!stored) return true;
  const message = await messageRepo.findByProviderId(ctx.sql, target.companyId, target.whatsappId, providerId);
  if (!message) return false;
  if (stored.status !== "failed") {
    if (stored.ack > 0) await applyAck(ctx, target.companyId, target.whatsappId, providerId, stored.ack);
  } else {
    const changed = await officialRepo.markMessageFailed(ctx.sql, target.companyId, target.whatsappId, providerId, officialRepo.statusErrorText(stored));
    if (changed) {
      const row = await messageRepo.findMessage(ctx.sql, target.companyId, changed.id);
      const ticket = await ticketRepo.findTicket(ctx.sql, target.companyId, changed.ticket_id);
      if (row && ticket) await emitAppMessage(ctx, "update", presentMessage(row), ticket);
    }
  }
  return true;
}

export async function retryStatus(ctx: AppContext, p: z.infer<typeof statusRetryPayload>): Promise<void> {
  const applied = await applyStoredStatus(ctx, p, p.providerId);
  if (!applied && p.attempt < STATUS_RETRY_LIMIT) {
    await ctx.jobs.send(STATUS_RETRY_JOB, { ...p, attempt: p.attempt + 1 }, { startAfter: Date.now() + 2000 * 2 ** p.attempt });
  }
}
