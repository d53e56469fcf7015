import { GraphError, GraphUnavailable } from "../../channels/cloud-api/graph-client.js";
import { isRetryable, metaText } from "../../channels/cloud-api/send-errors.js";

/**
 * What a send's answer means for its row (WhatsApp Cloud API "Error codes", checked against
 * channels/cloud-api/send-errors.ts which the one-to-one sends use):
 * - `sent`: Meta accepted it (the wamid).
 * - `retry`: refused for now — 130429 throughput, 131056 pair rate limit, 131000/131016/133004 and any
 *   HTTP 5xx or `is_transient`, or the request never reached Meta (connection refused): back to
 *   pending with a later next_attempt_at.
 * - `unknown`: the request may have reached Meta and the answer was lost (timeout): the row stays
 *   `sending` and is reconciled from the status webhooks, never sent again.
 * - `violation`: the account or number is blocked (368 temporarily blocked for policy violations,
 *   131031 account locked, 131042 payment issue, 190 token invalid): the row goes back to pending and
 *   the campaign pauses with the text as its account violation.
 * - `failed`: anything else (131026 undeliverable, 131047 re-engagement, 131051 unsupported type,
 *   132000-132999 template errors, 100 invalid parameter, 131008, 131009, 131048 spam rate limit, ...).
 */
export type SendOutcome =
  | { kind: "sent"; providerId: string }
  | { kind: "retry"; code: number | null; message: string; pair: boolean }
  | { kind: "unknown"; message: string }
  | { kind: "violation"; code: number | null; message: string }
  | { kind: "failed"; code: number | null; message: string };

export const ACCOUNT_VIOLATION_CODES: ReadonlySet<number> = new Set([368, 131031, 131042, 190]);
const PAIR_RATE_LIMIT = 131056;

export function outcomeOf(err: unknown): SendOutcome {
  if (err instanceof GraphUnavailable) {
    // fetch's timeout: the request was sent and its answer never came — Meta may have accepted it
    if (/timeout|aborted/i.test(err.message)) return { kind: "unknown", message: err.message };
    return { kind: "retry", code: null, message: err.message, pair: false };
  }
  if (err instanceof GraphError) {
    const message = metaText(err).slice(0, 1000);
    if (err.code !== null && ACCOUNT_VIOLATION_CODES.has(err.code)) return { kind: "violation", code: err.code, message };
    if (isRetryable(err)) return { kind: "retry", code: err.code, message, pair: err.code === PAIR_RATE_LIMIT };
    return { kind: "failed", code: err.code, message };
  }
  return { kind: "failed", code: null, message: (err instanceof Error ? err.message : String(err)).slice(0, 1000) };
}

/**
 * A failed status whose error says the message's time-to-live passed before it could be delivered
 * (WhatsApp "Configure message time-to-live": an undelivered message is dropped when its TTL ends
 * and a `failed` status is sent) counts as `expired` rather than failed.
 */
export function isExpiryError(e: { code?: number | null; title?: string; message?: string; details?: string } | undefined): boolean {
  if (!e) return false;
  const text = `${e.title ?? ""} ${e.message ?? ""} ${e.details ?? ""}`;
  return /time[- ]to[- ]live|\bTTL\b|expired|validity period/i.test(text);
}
