import { z } from "zod";
import { channels } from "../../channels/manager.js";
import { RetryLaterError, type RetryPace } from "../../channels/send-errors.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { emitAppMessage } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import { presentMessage } from "./presenter.js";
import * as repo from "./repository.js";
import { deliverQueued } from "./send-message.js";

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

export function defineSendRetryJob(ctx: AppContext): void {
  ctx.jobs.define({
    name: SEND_RETRY_JOB,
    schema: sendRetryPayload,
    concurrency: 1,
    retryLimit: 3,
    handler: async (p) => {
      await runSendRetry(ctx, p);
    },
  });
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

export type RetryOutcome = "skipped" | "queued" | "sent" | "retrying" | "failed";

/**
 * One more attempt, at most once per round even when several processes run the job: the row is
 * claimed (`retrying` with this round's attempt count → `sending`) before anything is sent. The
 * process that runs the connection sends it through the same path as a queued message (window
 * check, the same payload, the quoted message, the file uploaded again); elsewhere it goes back to the
 * outbox (`queued`) for that process. A connection that is not running counts as a refused attempt.
 */
export async function runSendRetry(ctx: AppContext, p: SendRetryPayload): Promise<RetryOutcome> {
  const claimed = await ctx.sql.maybe<{ whatsapp_id: number; ticket_id: number }>(
    `UPDATE messages SET send_status = 'sending', next_attempt_at = NULL, updated_at = now()
      WHERE company_id = $1 AND id = $2 AND send_status = 'retrying' AND send_attempts = $3
      RETURNING whatsapp_id, ticket_id`,
    [p.companyId, p.messageId, p.attempt],
  );
  if (!claimed) return "skipped";
  let target: Awaited<ReturnType<ReturnType<typeof channels>["sendTarget"]>>;
  try {
    target = await channels(ctx).sendTarget(p.companyId, claimed.whatsapp_id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    ctx.log.warn({ err, companyId: p.companyId, messageId: p.messageId }, "retry found the connection not running");
    const outcome = await recordRetryableFailure(ctx, p.companyId, p.messageId, new RetryLaterError(`Não foi possível enviar a mensagem: ${err.message}`));
    await emitUpdate(ctx, p.companyId, p.messageId, claimed.ticket_id);
    return outcome;
  }
  if (target.kind === "remote") {
    await ctx.sql.exec("UPDATE messages SET send_status = 'queued', updated_at = now() WHERE company_id = $1 AND id = $2 AND send_status = 'sending'", [
      p.companyId,
      p.messageId,
    ]);
    return "queued";
  }
  await deliverQueued(ctx, target.driver, p.companyId, p.messageId);
  const row = await ctx.sql.one<{ send_status: RetryOutcome }>("SELECT send_status FROM messages WHERE company_id = $1 AND id = $2", [p.companyId, p.messageId]);
  return row.send_status;
}

async function emitUpdate(ctx: AppContext, companyId: number, id: number, ticketId: number): Promise<void> {
  const row = await repo.findMessage(ctx.sql, companyId, id);
  const ticket = await ticketRepo.findTicket(ctx.sql, companyId, ticketId);
  if (row && ticket) await emitAppMessage(ctx, "update", presentMessage(row), ticket);
}
