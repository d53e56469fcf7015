import { z } from "zod";
import type { MessagesValue, WebhookPayload } from "../../channels/cloud-api/webhook-types.js";
import type { AppContext } from "../../core/context.js";
import * as businessRepo from "../businesses/repository.js";
import type { BusinessSecrets } from "../businesses/repository.js";
import { processAccountUpdate, processNameUpdate, processQualityUpdate, processTemplateStatus } from "./process-account.js";
import { processMessagesChange } from "./process-messages.js";
import * as repo from "./repository.js";

export const WEBHOOK_JOB = "official.webhook";
export const webhookJobPayload = z.object({ eventId: z.number().int().positive() });

/**
 * Processes one stored delivery: every change of every entry, each independently (one failing change
 * does not stop the others). A failure marks the event failed and rethrows, so the job is retried;
 * reprocessing is harmless because messages are unique per provider id and acks only rise.
 */
export async function processWebhookEvent(ctx: AppContext, eventId: number): Promise<void> {
  const failed = await processWebhookEvents(ctx, [eventId]);
  const failure = failed.get(eventId);
  if (failure !== undefined) throw failure;
}

/**
 * Several stored deliveries at once (the inline runner takes what has arrived meanwhile): the
 * `messages` changes of the same number are merged, in arrival order, so their messages are stored
 * together (processMessagesChange); other changes run one by one. Returns the failed events with
 * their error (each marked failed; the rest processed).
 */
export async function processWebhookEvents(ctx: AppContext, eventIds: number[]): Promise<Map<number, unknown>> {
  const failed = new Map<number, unknown>();
  const events = (await repo.startAttempts(ctx.sql, eventIds)).sort((a, b) => a.id - b.id);
  const byBusiness = new Map<number, typeof events>();
  for (const e of events) byBusiness.set(e.business_id, [...(byBusiness.get(e.business_id) ?? []), e]);
  for (const group of byBusiness.values()) {
    const business = await businessRepo.findSecrets(ctx.sql, group[0]!.company_id, group[0]!.business_id);
    if (!business) continue;
    const merged = new Map<string, { value: Required<Pick<MessagesValue, "contacts" | "messages" | "statuses">> & MessagesValue; events: number[] }>();
    for (const event of group) {
      const payload = event.payload as WebhookPayload;
      for (const entry of payload.entry ?? []) {
        for (const change of entry.changes ?? []) {
          const value = change.value ?? {};
          if (change.field === "messages") {
            const v = value as MessagesValue;
            const key = v.metadata?.phone_number_id ?? "";
            const m = merged.get(key) ?? { value: { ...v, contacts: [], messages: [], statuses: [] }, events: [] };
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
    }
    for (const m of merged.values()) {
      try {
        await processMessagesChange(ctx, business, m.value);
      } catch (err) {
        for (const id of m.events) if (!failed.has(id)) failed.set(id, err);
      }
    }
  }
  const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);
  const ok = events.map((e) => e.id).filter((id) => !failed.has(id));
  if (ok.length) await repo.finishMany(ctx.sql, ok);
  for (const [id, err] of failed) await repo.finish(ctx.sql, id, message(err));
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
