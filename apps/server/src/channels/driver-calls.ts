import type { ErrorCode } from "@atende/shared";
import { ERROR_STATUS } from "@atende/shared";
import type { AppContext } from "../core/context.js";
import { AppError } from "../core/errors.js";
import { notify } from "../core/pg-listener.js";
import type { Sql } from "../db/sql.js";

/**
 * Driver-direct actions carried to the process that runs a connection (docs/architecture.md "Process
 * roles and fencing"). The asking process stores the call in `driver_calls` and announces it
 * (NOTIFY driver_calls); the process holding the connection's lease claims it (waiting → running, one
 * process only), runs it with its driver, stores the answer or the error's code and announces it
 * (NOTIFY driver_call_answers); the asking process, woken by the notification (or its own slow poll,
 * should a notification be lost), reads and deletes the row and answers its request with it.
 */

export const CALLS_CHANNEL = "driver_calls";
export const ANSWERS_CHANNEL = "driver_call_answers";
/** How long a request waits for the owner's answer before it answers ERR_WAPP_OWNER_UNREACHABLE. */
export const DRIVER_CALL_TIMEOUT_MS = 10_000;
/** The asking side's poll, in case a notification was lost (a LISTEN connection that reconnected). */
const ANSWER_POLL_MS = 500;
/** Answered or abandoned calls nobody read (the caller's process stopped) are deleted after this long. */
const KEEP_MINUTES = 10;

export interface DriverCallRow {
  id: number;
  company_id: number;
  whatsapp_id: number;
  action: string;
  args: Record<string, unknown>;
}

interface AnswerRow {
  state: "waiting" | "running" | "done" | "failed" | "abandoned";
  result: unknown;
  error_code: string | null;
  error_message: string | null;
}

/** The asking process's side: waiters woken by ANSWERS_CHANNEL. */
export class DriverCallClient {
  private readonly waiters = new Map<number, () => void>();
  private listening: Promise<void> | null = null;

  constructor(private readonly ctx: AppContext) {}

  private listen(): Promise<void> {
    this.listening ??= this.ctx.listener.listen(ANSWERS_CHANNEL, (payload) => this.waiters.get(Number(payload))?.());
    return this.listening;
  }

  /**
   * Stores a call and waits for its answer: the owner's result, or the owner's error rethrown as the
   * same AppError. No answer in `timeoutMs`: ERR_WAPP_OWNER_UNREACHABLE (a call nobody took yet is
   * withdrawn first, so it never runs after its caller gave up; one already running may still finish).
   */
  async call<T>(
    companyId: number,
    whatsappId: number,
    action: string,
    args: Record<string, unknown>,
    opts: { needsOwner: boolean; timeoutMs?: number },
  ): Promise<T> {
    await this.listen();
    const { id } = await this.ctx.sql.one<{ id: number }>(
      "INSERT INTO driver_calls (company_id, whatsapp_id, action, args, needs_owner) VALUES ($1, $2, $3, $4, $5) RETURNING id",
      [companyId, whatsappId, action, JSON.stringify(args), opts.needsOwner],
    );
    let wake = () => undefined as void;
    this.waiters.set(id, () => wake());
    try {
      await notify(this.ctx.sql, CALLS_CHANNEL, String(whatsappId));
      const until = Date.now() + (opts.timeoutMs ?? this.ctx.config.driverCallTimeoutMs ?? DRIVER_CALL_TIMEOUT_MS);
      for (;;) {
        const answer = await this.answered(companyId, id);
        if (answer) return answerOf<T>(answer);
        const left = until - Date.now();
        if (left <= 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(ANSWER_POLL_MS, left));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const withdrawn = await this.ctx.sql.exec("UPDATE driver_calls SET state = 'abandoned', answered_at = now() WHERE id = $1 AND state = 'waiting'", [id]);
      // it was answered in the meantime: the answer stands
      const late = withdrawn ? null : await this.answered(companyId, id);
      if (late) return answerOf<T>(late);
      this.ctx.log.warn({ companyId, whatsappId, action, callId: id, claimed: !withdrawn }, "a forwarded connection action got no answer in time");
      throw new AppError("ERR_WAPP_OWNER_UNREACHABLE", "O servidor que executa esta conexão não respondeu a tempo");
    } finally {
      this.waiters.delete(id);
    }
  }

  /** The call's answer when it has one (the row is deleted: read once), else null. */
  private async answered(companyId: number, id: number): Promise<AnswerRow | null> {
    return this.ctx.sql.maybe<AnswerRow>(
      "DELETE FROM driver_calls WHERE company_id = $1 AND id = $2 AND state IN ('done', 'failed') RETURNING state, result, error_code, error_message",
      [companyId, id],
    );
  }
}

function answerOf<T>(row: AnswerRow): T {
  if (row.state === "done") return row.result as T;
  const code = row.error_code && Object.prototype.hasOwnProperty.call(ERROR_STATUS, row.error_code) ? (row.error_code as ErrorCode) : "ERR_INTERNAL";
  throw new AppError(code, row.error_message ?? "");
}

/**
 * The owner's side: takes the waiting calls this process may run — those of connections whose lease it
 * holds, and (when it runs sessions) those any such process may run (a session start). One process
 * only takes each call (SKIP LOCKED), oldest first.
 */
export function claimCalls(sql: Sql, ownerId: string, runsSessions: boolean): Promise<DriverCallRow[]> {
  return sql.many<DriverCallRow>(
    `UPDATE driver_calls SET state = 'running', claimed_by = $1
      WHERE id IN (SELECT id FROM driver_calls
                    WHERE state = 'waiting'
                      AND ((needs_owner AND whatsapp_id IN (SELECT whatsapp_id FROM connection_owners WHERE owner_id = $1)) OR (NOT needs_owner AND $2))
                    ORDER BY id LIMIT 50 FOR UPDATE SKIP LOCKED)
      RETURNING id, company_id, whatsapp_id, action, args`,
    [ownerId, runsSessions],
  ).then((rows) => rows.sort((a, b) => a.id - b.id));
}

/** Whether calls wait for anyone (one index probe): the owner's poll, in case a notification was lost. */
export async function callsWaiting(sql: Sql): Promise<boolean> {
  return Boolean(await sql.maybe("SELECT 1 FROM driver_calls WHERE state = 'waiting' LIMIT 1"));
}

/** Stores a call's answer (its result, or its error's code and text) and wakes the asking process. */
export async function answerCall(sql: Sql, id: number, outcome: { result: unknown } | { error: unknown }): Promise<void> {
  if ("result" in outcome) {
    await sql.exec("UPDATE driver_calls SET state = 'done', result = $2, answered_at = now() WHERE id = $1", [id, JSON.stringify(outcome.result ?? null)]);
  } else {
    const err = outcome.error;
    const code = err instanceof AppError ? err.code : "ERR_INTERNAL";
    const message = err instanceof AppError ? err.message : "Erro interno";
    await sql.exec("UPDATE driver_calls SET state = 'failed', error_code = $2, error_message = $3, answered_at = now() WHERE id = $1", [id, code, message]);
  }
  await notify(sql, ANSWERS_CHANNEL, String(id));
}

/** Calls whose caller never read the answer (its process stopped), and withdrawn ones: deleted. */
export function sweepCalls(sql: Sql): Promise<number> {
  return sql.exec(
    `DELETE FROM driver_calls WHERE (state IN ('done', 'failed', 'abandoned') AND answered_at < now() - make_interval(mins => $1))
        OR created_at < now() - make_interval(mins => $1 * 6)`,
    [KEEP_MINUTES],
  );
}
