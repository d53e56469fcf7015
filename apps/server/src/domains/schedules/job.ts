import { z } from "zod";
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

export type SendOutcome = "sent" | "failed" | "skipped";

/**
 * Sends one schedule exactly once: under the row lock, a schedule already sent, failed, deleted or
 * moved to another time is skipped; the sender's rows and sentAt (or ERRO) commit together. A crash
 * before the commit leaves the row untouched and pg-boss runs the job again.
 */
export async function runScheduleSend(ctx: AppContext, sender: ScheduleSender, p: SendJobPayload): Promise<{ outcome: SendOutcome; afterCommit?: () => void | Promise<void> }> {
  return ctx.sql.tx(async (sql) => {
    const row = await repo.findSchedule(sql, p.companyId, p.scheduleId, { lock: true });
    if (!row || row.sent_at || (row.status !== "PENDENTE" && row.status !== "AGENDADA")) return { outcome: "skipped" as const };
    if (row.send_at.getTime() !== Date.parse(p.sendAt)) return { outcome: "skipped" as const };
    await sql.exec("SAVEPOINT schedule_send");
    try {
      const result = await sender.send(sql, {
        companyId: row.company_id,
        scheduleId: row.id,
        body: row.body,
        userId: row.user_id,
        whatsappId: row.whatsapp_id,
        contactId: row.contact_id,
        media: row.media_path ? { path: row.media_path, name: row.media_name ?? "imagem" } : null,
      });
      await repo.markSent(sql, row.company_id, row.id, result.ticketId);
      return { outcome: "sent" as const, afterCommit: result.afterCommit };
    } catch (err) {
      await sql.exec("ROLLBACK TO SAVEPOINT schedule_send");
      await repo.markFailed(sql, row.company_id, row.id, err instanceof Error ? err.message : String(err));
      return { outcome: "failed" as const };
    }
  });
}
