import { SETTING_DEFAULTS } from "@atende/shared";
import { z } from "zod";
import type { AppContext } from "../../core/context.js";

export const WEBHOOK_PURGE_JOB = "webhooks.purge";
export const webhookPurgePayload = z.object({}).passthrough();
/** Every hour: a delivery outlives its company's retention by an hour at most. */
export const WEBHOOK_PURGE_CRON = "25 * * * *";
/** Rows deleted per statement, so one company's backlog never holds a long lock. */
const BATCH = 5000;

/**
 * Deletes the raw Cloud API deliveries older than their company's `webhookRetentionDays` (default
 * SETTING_DEFAULTS.webhookRetentionDays), whatever their status: what a delivery carried is in the
 * messages by then, and one still unprocessed after days was given up long before (its attempts ran
 * out). Returns the rows deleted.
 */
export async function purgeWebhookEvents(ctx: AppContext): Promise<number> {
  const fallback = Number(SETTING_DEFAULTS.webhookRetentionDays);
  let total = 0;
  for (;;) {
    const n = await ctx.sql.exec(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT e.id FROM webhook_events e
           LEFT JOIN settings s ON s.company_id = e.company_id AND s.key = 'webhookRetentionDays'
          WHERE e.received_at < now() - make_interval(days => CASE WHEN s.value ~ '^[0-9]{1,3}$' THEN s.value::int ELSE $1 END)
          LIMIT $2)`,
      [fallback, BATCH],
    );
    total += n;
    if (n < BATCH) break;
  }
  if (total) ctx.log.info({ deleted: total }, "raw webhook deliveries past their retention deleted");
  return total;
}
