import { channels } from "../../channels/manager.js";
import { RetryLaterError } from "../../channels/send-errors.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { emitAppMessage } from "../tickets/events.js";
import * as ticketRepo from "../tickets/repository.js";
import { presentMessage } from "./presenter.js";
import * as repo from "./repository.js";
import { deliverQueued } from "./send-message.js";
import { recordRetryableFailure, SEND_RETRY_JOB, sendRetryPayload, type SendRetryPayload } from "./send-retry.js";

/** The durable job that makes a refused message's next attempt (send-retry.ts records the refusal and queues it). */
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
