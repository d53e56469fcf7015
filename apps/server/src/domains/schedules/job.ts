import { z } from "zod";
import { CONNECTION_WAIT_MS, ConnectionNotReady, connectionRetryDelayMs } from "../../channels/connection-wait.js";
import type { AppContext } from "../../core/context.js";
import type { ScheduleSender } from "./sender.js";
import * as repo from "./repository.js";

export const SEND_JOB = "schedules.send";

export const sendJobPayload = z.object({
  companyId: z.number().int().positive(),
  scheduleId: z.number().int().positive(),
  /** The send time the job was queued for; a job whose time was since changed does nothing. */
  sendAt: z.string(),
});
export type SendJobPayload = z.infer<typeof sendJobPayload>;

/** Queues the send job for the schedule's time and records it (status AGENDADA). */
export async function queueScheduleSend(ctx: AppContext, companyId: number, scheduleId: number, sendAt: Date): Promise<void> {
  const payload: SendJobPayload = { companyId, scheduleId, sendAt: sendAt.toISOString() };
  const jobId = await ctx.jobs.send(SEND_JOB, payload, { startAfter: sendAt, singletonKey: `schedule-${scheduleId}` });
  if (jobId) await repo.markQueued(ctx.sql, companyId, scheduleId, jobId, sendAt);
}

export type SendOutcome = "sent" | "failed" | "skipped" | "waiting";

export const INTERRUPTED_SEND =
  "Envio interrompido (o servidor parou durante o envio). Verifique a conversa antes de salvar o agendamento novamente.";

/**
 * Sends one schedule at most once, and exactly once when nothing crashes mid-send:
 * 1. under the row lock, a schedule already sent, failed, deleted or moved to another time is skipped,
 *    otherwise it is claimed (claimed_at) and the claim committed;
 * 2. the sender delivers it (connection driver, message row, events);
 * 3. sentAt and ENVIADA (or ERRO with the reason) are recorded and the claim released.
 * A job that finds a claim left by a process that died during step 2 cannot know whether the contact
 * got the message, so it records ERRO instead of sending a possible duplicate.
 * A connection that is not ready yet (the server just restarted) is found before anything is sent: the
 * claim is given back and a new job tries again later, for up to CONNECTION_WAIT_MS after the due time.
 */
export async function runScheduleSend(ctx: AppContext, sender: ScheduleSender, p: SendJobPayload): Promise<SendOutcome> {
  const claimed = await ctx.sql.tx(async (sql) => {
    const row = await repo.findSchedule(sql, p.companyId, p.scheduleId, { lock: true });
    if (!row || row.sent_at || (row.status !== "PENDENTE" && row.status !== "AGENDADA")) return null;
    if (row.send_at.getTime() !== Date.parse(p.sendAt)) return null;
    if (row.claimed_at) {
      await repo.markFailed(sql, row.company_id, row.id, INTERRUPTED_SEND);
      return "interrupted" as const;
    }
    await repo.claim(sql, row.company_id, row.id);
    return row;
  });
  if (claimed === null) return "skipped";
  if (claimed === "interrupted") return "failed";
  try {
    const result = await sender.send({
      companyId: claimed.company_id,
      scheduleId: claimed.id,
      body: claimed.body,
      userId: claimed.user_id,
      whatsappId: claimed.whatsapp_id,
      contactId: claimed.contact_id,
      media: claimed.media_path ? { path: claimed.media_path, name: claimed.media_name ?? "imagem" } : null,
    });
    await repo.markSent(ctx.sql, claimed.company_id, claimed.id, result.ticketId);
    return "sent";
  } catch (err) {
    if (err instanceof ConnectionNotReady && (await waitForConnection(ctx, p, err.whatsappId))) return "waiting";
    await repo.markFailed(ctx.sql, claimed.company_id, claimed.id, err instanceof Error ? err.message : String(err));
    return "failed";
  }
}

/** Queues the next try while the bound allows it; false once the schedule has waited long enough. */
async function waitForConnection(ctx: AppContext, p: SendJobPayload, whatsappId: number): Promise<boolean> {
  const waited = Date.now() - Date.parse(p.sendAt);
  if (waited >= CONNECTION_WAIT_MS) return false;
  const delay = connectionRetryDelayMs(waited);
  // the next job is queued before the claim is given back: a crash in between leaves a claim, which the
  // next job reports as an interrupted send (an honest error) rather than a schedule nobody runs
  const jobId = await ctx.jobs.send(SEND_JOB, p, { startAfter: Date.now() + delay });
  if (!jobId) return false;
  await repo.releaseClaim(ctx.sql, p.companyId, p.scheduleId, jobId);
  ctx.log.info({ scheduleId: p.scheduleId, companyId: p.companyId, whatsappId, waitedMs: waited, retryInMs: delay }, "schedule waits for its connection");
  return true;
}
