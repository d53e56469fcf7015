import { z } from "zod";
import type { MessagesValue, WebhookPayload } from "../../channels/cloud-api/webhook-types.js";
import type { AppContext } from "../../core/context.js";
import * as businessRepo from "../businesses/repository.js";
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
  const event = await repo.startAttempt(ctx.sql, eventId);
  if (!event) return;
  const business = await businessRepo.findSecrets(ctx.sql, event.company_id, event.business_id);
  if (!business) return;
  const payload = event.payload as WebhookPayload;
  let failure: unknown = null;
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const value = change.value ?? {};
      try {
        switch (change.field) {
          case "messages":
            await processMessagesChange(ctx, business, value as MessagesValue);
            break;
          case "phone_number_quality_update":
            await processQualityUpdate(ctx, business, value);
            break;
          case "account_update":
            await processAccountUpdate(ctx, business, value);
            break;
          case "message_template_status_update":
            await processTemplateStatus(ctx, business, value);
            break;
          case "phone_number_name_update":
            await processNameUpdate(ctx, business, value);
            break;
          default:
            break; // fields this product does not use
        }
      } catch (err) {
        failure ??= err;
      }
    }
  }
  await repo.finish(ctx.sql, eventId, failure ? (failure instanceof Error ? failure.message : String(failure)).slice(0, 2000) : null);
  if (failure) throw failure;
}
