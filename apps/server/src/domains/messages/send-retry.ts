import { z } from "zod";
import { RetryLaterError, type RetryPace } from "../../channels/send-errors.js";
import type { AppContext } from "../../core/context.js";

/**
 * Another attempt for a message the provider refused for now. The waits grow exponentially with full
 * jitter (a random time up to base × 2^(n−1), at most capMs): 2 s, 4 s, 8 s, 16 s, 32 s at most
 * between the six attempts, about a minute in all. The pair rate limit (one recipient) first waits
 * pairFloorFactor base delays (Meta allows about one message every 6 s to the same number).
 */
export const SEND_RETRY = {
  /** Attempts in all, the first one included. */
  maxAttempts: 6,
  /** The first wait's ceiling (config.sendRetryBaseMs overrides it, e.g. in tests). */
  baseMs: 2_000,
  /** The longest single wait. */
  capMs: 60_000,
  pairFloorFactor: 3,
} as const;

export const SEND_RETRY_JOB = "messages.send-retry";

export const sendRetryPayload = z.object({
  companyId: z.number().int().positive(),
  messageId: z.number().int().positive(),
  /** The attempts made when the job was queued; a job for an earlier round finds another count and does nothing. */
  attempt: z.number().int().min(1),
});
export type SendRetryPayload = z.infer<typeof sendRetryPayload>;

/** The wait before the next attempt, after `attempts` attempts (1 after the first). */
export function retryDelayMs(attempts: number, pace: RetryPace, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(SEND_RETRY.capMs, baseMs * 2 ** Math.max(0, attempts - 1));
  const jitter = Math.floor(random() * ceiling);
  return pace === "pair" ? baseMs * SEND_RETRY.pairFloorFactor + jitter : jitter;
}

/**
 * Records an attempt the provider refused for now: the message waits (`retrying`, shown as pending)
 * and a durable job, stored in the same transaction, tries again at next_attempt_at; after the last
 * attempt the message fails with the provider's reason.
 */
export async function recordRetryableFailure(ctx: AppContext, companyId: number, id: number, err: RetryLaterError): Promise<"retrying" | "failed"> {
  const reason = `${err.code}: ${err.message}`.slice(0, 1000);
  return ctx.sql.tx(async (sql) => {
    const { send_attempts: attempts } = await sql.one<{ send_attempts: number }>(
      "UPDATE messages SET send_attempts = send_attempts + 1 WHERE company_id = $1 AND id = $2 RETURNING send_attempts",
      [companyId, id],
    );
    if (attempts >= SEND_RETRY.maxAttempts) {
      await sql.exec(
        "UPDATE messages SET send_status = 'failed', send_error = $3, ack = 0, next_attempt_at = NULL, updated_at = now() WHERE company_id = $1 AND id = $2",
        [companyId, id, reason],
      );
      return "failed";
    }
    const at = new Date(Date.now() + retryDelayMs(attempts, err.pace, ctx.config.sendRetryBaseMs ?? SEND_RETRY.baseMs));
    await sql.exec(
      "UPDATE messages SET send_status = 'retrying', send_error = $3, ack = 0, next_attempt_at = $4, updated_at = now() WHERE company_id = $1 AND id = $2",
      [companyId, id, reason, at],
    );
    await ctx.jobs.send(SEND_RETRY_JOB, { companyId, messageId: id, attempt: attempts } satisfies SendRetryPayload, { startAfter: at, db: sql });
    ctx.log.info({ companyId, messageId: id, attempts, nextAttemptAt: at, reason }, "message send refused for now; retrying later");
    return "retrying";
  });
}
