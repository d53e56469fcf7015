import { z } from "zod";
import type { MessagesValue, WebhookEntry, WebhookPayload } from "../../channels/cloud-api/webhook-types.js";
import type { AppContext } from "../../core/context.js";
import { checkDeliveryShape } from "./delivery-shape.js";
import * as businessRepo from "../businesses/repository.js";
import type { BusinessSecrets } from "../businesses/repository.js";
import { processAccountUpdate, processNameUpdate, processQualityUpdate, processTemplateStatus } from "./process-account.js";
import { processMessagesChange } from "./process-messages.js";
import type { WebhookLookups } from "./lookups.js";
import * as repo from "./repository.js";
import { entryBusinesses } from "./waba-routing.js";

export const WEBHOOK_JOB = "official.webhook";
/**
 * Attempts a delivery gets in all (the inline one, then jobs and the pending sweep); after the last
 * one fails it stays `failed` with its error on the row, for an operator to read, and is not retried.
 */
export const WEBHOOK_MAX_ATTEMPTS = 5;
export const webhookJobPayload = z.object({ eventId: z.number().int().positive() });

/** A delivery as stored: its id, company, business and body (and how often it was tried, when known). */
export type StoredDelivery = Pick<repo.WebhookEventRow, "id" | "company_id" | "business_id" | "payload" | "received_at"> & { attempts?: number };

/**
 * From this attempt of a delivery on, a file Meta still cannot provide is given up: the message is
 * stored with its caption and marked 'media unavailable' rather than lost when the retries run out
 * (the job has 5 retries; Meta keeps media for 30 days, so a file missing this long will not come).
 */
export const MEDIA_GIVE_UP_ATTEMPT = 3;

/**
 * Processes one stored delivery (the job's way): every change of every entry, each independently (one
 * failing change does not stop the others). A failure marks the event failed and rethrows, so the job
 * is retried, until WEBHOOK_MAX_ATTEMPTS: then the event stays failed with its error and the job ends.
 * Reprocessing is harmless because messages are unique per provider id and acks only rise.
 */
export async function processWebhookEvent(ctx: AppContext, lookups: WebhookLookups, eventId: number): Promise<void> {
  const events = await repo.startAttempts(ctx.sql, [eventId], WEBHOOK_MAX_ATTEMPTS);
  const event = events[0];
  if (!event) return; // processed meanwhile, or out of attempts
  const business = await businessRepo.findSecrets(ctx.sql, ctx.secrets, event.company_id, event.business_id);
  let failure: unknown;
  try {
    failure = (await processDeliveries(ctx, lookups, [{ event, business }])).get(eventId);
  } catch (err) {
    // a failure outside any one change (the database): recorded on the row too, then retried
    await repo.finish(ctx.sql, eventId, errorText(err));
    failure = err;
  }
  if (failure === undefined) return;
  if (event.attempts >= WEBHOOK_MAX_ATTEMPTS) {
    ctx.log.error({ err: failure, eventId, companyId: event.company_id, businessId: event.business_id, attempts: event.attempts }, "webhook delivery failed for good; kept as failed");
    return;
  }
  throw failure;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/**
 * Several deliveries at once (the inline runner takes what has arrived meanwhile, with the business
 * the POST checked the signature with): the `messages` changes of the same number are merged, in
 * arrival order, so their messages are stored together (processMessagesChange); other changes run
 * one by one. Returns the failed events with their error (each marked failed; the rest processed).
 */
export async function processDeliveries(
  ctx: AppContext,
  lookups: WebhookLookups,
  items: { event: StoredDelivery; business: BusinessSecrets | null }[],
): Promise<Map<number, unknown>> {
  const failed = new Map<number, unknown>();
  // Each entry goes to the business of the WABA it names (entryBusinesses), whatever URL it came on.
  const byBusiness = new Map<number, { business: BusinessSecrets; parts: { event: StoredDelivery; entry: WebhookEntry }[] }>();
  for (const { event, business } of [...items].sort((a, b) => a.event.id - b.event.id)) {
    if (!business) continue;
    const routed: { target: BusinessSecrets; entry: WebhookEntry }[] = [];
    try {
      checkDeliveryShape(event.payload);
      for (const entry of (event.payload as WebhookPayload).entry ?? []) {
        for (const target of await entryBusinesses(ctx, lookups, business, event.id, entry.id)) routed.push({ target, entry });
      }
    } catch (err) {
      failed.set(event.id, err); // nothing of it applied: retried whole
      continue;
    }
    for (const { target, entry } of routed) {
      const unit = byBusiness.get(target.id) ?? { business: target, parts: [] };
      unit.parts.push({ event, entry });
      byBusiness.set(target.id, unit);
    }
  }
  for (const { business, parts } of byBusiness.values()) {
    const merged = new Map<string, { value: Required<Pick<MessagesValue, "contacts" | "messages" | "statuses">> & MessagesValue; events: number[]; attempts: number }>();
    for (const { event, entry } of parts) {
      for (const change of entry.changes ?? []) {
        const value = change.value ?? {};
        if (change.field === "messages") {
          const v = value as MessagesValue;
          const key = v.metadata?.phone_number_id ?? "";
          const m = merged.get(key) ?? { value: { ...v, contacts: [], messages: [], statuses: [] }, events: [], attempts: 0 };
          m.attempts = Math.max(m.attempts, event.attempts ?? 0);
          m.value.contacts.push(...(v.contacts ?? []));
          m.value.messages.push(...(v.messages ?? []));
          m.value.statuses.push(...(v.statuses ?? []));
          if (!m.events.includes(event.id)) m.events.push(event.id);
          merged.set(key, m);
          continue;
        }
        try {
          await processOtherChange(ctx, business, change.field, value);
        } catch (err) {
          if (!failed.has(event.id)) failed.set(event.id, err);
        }
      }
    }
    for (const m of merged.values()) {
      try {
        await processMessagesChange(ctx, lookups, business, m.value, { giveUpMedia: m.attempts >= MEDIA_GIVE_UP_ATTEMPT });
      } catch (err) {
        for (const id of m.events) if (!failed.has(id)) failed.set(id, err);
      }
    }
  }
  const ok = items.map((i) => i.event).filter((e) => !failed.has(e.id));
  if (ok.length) await repo.finishMany(ctx.sql, ok.map((e) => e.id));
  for (const e of ok) if (e.received_at) ctx.metrics.webhookProcessed(e.received_at);
  for (const [id, err] of failed) {
    ctx.log.warn({ err, eventId: id }, "webhook delivery failed (kept on its row; retried up to WEBHOOK_MAX_ATTEMPTS)");
    await repo.finish(ctx.sql, id, errorText(err));
  }
  return failed;
}

async function processOtherChange(ctx: AppContext, business: BusinessSecrets, field: string | undefined, value: Record<string, unknown>): Promise<void> {
  switch (field) {
    case "phone_number_quality_update":
      return processQualityUpdate(ctx, business, value);
    case "account_update":
      return processAccountUpdate(ctx, business, value);
    case "message_template_status_update":
      return processTemplateStatus(ctx, business, value);
    case "phone_number_name_update":
      return processNameUpdate(ctx, business, value);
    default:
      return; // fields this product does not use
  }
}
