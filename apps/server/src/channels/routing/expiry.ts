import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import type { Sql } from "../../db/sql.js";

/**
 * Inactivity expiry (the connection's expiresTicket, in minutes). Every message of a ticket, in or
 * out, moves `tickets.expires_at`; one durable job per ticket waits for it. A job that wakes up before
 * the (moved) due time queues the next one for it, so a busy ticket costs one job per expiresTicket
 * minutes, not one per message; nothing ever scans the open tickets.
 */
export const EXPIRE_JOB = "channels.ticket-expire";
export const expirePayload = z.object({ companyId: z.number().int().positive(), ticketId: z.number().int().positive() });

/** A job queued longer ago than this and not yet run is taken as lost: the next message queues another. */
const LOST_JOB_MS = 5 * 60 * 1000;

/** Statuses an inactive ticket is closed from (a paused ticket is an agent's deliberate hold). */
export const EXPIRABLE = ["open", "pending"];

/**
 * A message on the ticket: expiry moves to now + `minutes`. Runs inside the message's transaction;
 * the job (when one is needed) is queued before the ticket row records it, so a rolled-back
 * transaction leaves at most a job that finds nothing due.
 */
export async function touchExpiry(ctx: AppContext, sql: Sql, companyId: number, ticketId: number, minutes: number): Promise<void> {
  if (!(minutes > 0)) return;
  const row = await sql.maybe<{ expires_at: Date; job_missing: boolean }>(
    `UPDATE tickets SET expires_at = now() + make_interval(mins => $3::int)
      WHERE company_id = $1 AND id = $2 AND status <> 'closed'
      RETURNING expires_at, (expire_job_at IS NULL OR expire_job_at < now() - make_interval(secs => $4::float8)) AS job_missing`,
    [companyId, ticketId, minutes, LOST_JOB_MS / 1000],
  );
  if (!row?.job_missing) return;
  await ctx.jobs.send(EXPIRE_JOB, { companyId, ticketId }, { startAfter: row.expires_at });
  await sql.exec("UPDATE tickets SET expire_job_at = $3 WHERE company_id = $1 AND id = $2", [companyId, ticketId, row.expires_at]);
}
