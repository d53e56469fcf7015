import type { AppContext } from "../core/context.js";
import { AppError } from "../core/errors.js";
import { channels } from "./manager.js";

/**
 * Work that fell due while the server was down (a schedule, an inactivity expiry and its farewell)
 * runs as soon as the job queue starts, which is before the connections have resumed their sessions
 * (a WhatsApp session takes seconds to minutes to reconnect). Such work waits for its connection for
 * up to this long after it fell due, retrying with a growing delay, instead of failing for good at
 * start-up. Past the bound it fails (a schedule is marked ERRO) or goes ahead without the message.
 */
export const CONNECTION_WAIT_MS = 10 * 60_000;
const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 60_000;

/** The delay before the next try: about as long as it has waited so far (so it doubles), 2 s to 60 s. */
export function connectionRetryDelayMs(waitedMs: number): number {
  return Math.min(MAX_RETRY_MS, Math.max(FIRST_RETRY_MS, waitedMs));
}

/** The connection exists but cannot send yet (not CONNECTED, or its session is not running here yet). */
export class ConnectionNotReady extends Error {
  constructor(readonly whatsappId: number) {
    super("A conexão não está conectada");
  }
}

/** Whether the connection can send now; a connection that is gone (ERR_NO_WAPP_FOUND) is an error, not a wait. */
export async function connectionReady(ctx: AppContext, companyId: number, whatsappId: number): Promise<boolean> {
  try {
    await channels(ctx).sendTarget(companyId, whatsappId);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === "ERR_WAPP_NOT_INITIALIZED") return false;
    throw err;
  }
}

/** Throws ConnectionNotReady when the connection cannot send yet (so the caller can wait for it). */
export async function requireConnectionReady(ctx: AppContext, companyId: number, whatsappId: number): Promise<void> {
  if (!(await connectionReady(ctx, companyId, whatsappId))) throw new ConnectionNotReady(whatsappId);
}
