import { AppError } from "../../core/errors.js";
import { RetryLaterError } from "../send-errors.js";
import { GraphError, GraphUnavailable } from "./graph-client.js";

/** Graph error "Re-engagement message": more than 24 hours since the customer last replied. */
export const GRAPH_WINDOW_CLOSED = 131047;
/** Graph error "Invalid OAuth access token": the business's token expired or was revoked. */
export const GRAPH_TOKEN_INVALID = 190;
/** Graph error "(Business Account, Consumer Account) pair rate limit hit": too many messages to one number. */
export const GRAPH_PAIR_RATE_LIMIT = 131056;

/**
 * Cloud API error codes after which the same send may succeed (WhatsApp Cloud API "Error codes"):
 * 130429 rate limit hit (the number's throughput), 131056 pair rate limit hit, 131000 something went
 * wrong, 131016 service unavailable, 133004 server temporarily unavailable. Anything else (131026
 * undeliverable, 131051 unsupported type, 131048 spam rate limit, 100 invalid parameter, 132xxx
 * template errors, ...) would be refused again and fails at once.
 */
export const RETRYABLE_GRAPH_CODES: ReadonlySet<number> = new Set([130429, GRAPH_PAIR_RATE_LIMIT, 131000, 131016, 133004]);

/** True for a failure another attempt may get past: the codes above, HTTP 5xx, `is_transient: true`, no answer at all. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof GraphUnavailable) return true;
  if (!(err instanceof GraphError)) return false;
  return err.isTransient || err.status >= 500 || (err.code !== null && RETRYABLE_GRAPH_CODES.has(err.code));
}

/** Meta's text of an error: its message and, when given, the details (`error_data.details`). */
export function metaText(err: Error): string {
  const details = err instanceof GraphError ? err.details : "";
  return details && !err.message.includes(details) ? `${err.message} — ${details}` : err.message;
}

export function sessionExpired(): AppError {
  return new AppError("ERR_WPP_OFFICIAL_SESSION_EXPIRED", "A janela de 24 horas de atendimento expirou; envie um template para retomar a conversa");
}

/** The error a failed Graph call becomes: retry later, the closed window, or a refusal with Meta's text. */
export function mapGraphError(err: unknown): Error {
  if (err instanceof AppError) return err;
  if (err instanceof GraphError && err.code === GRAPH_WINDOW_CLOSED) return sessionExpired();
  if (err instanceof GraphError || err instanceof GraphUnavailable) {
    const text = `Não foi possível enviar a mensagem: ${metaText(err)}`;
    if (isRetryable(err)) return new RetryLaterError(text, err instanceof GraphError && err.code === GRAPH_PAIR_RATE_LIMIT ? "pair" : "normal");
    return new AppError("ERR_SENDING_WAPP_MSG", text);
  }
  return err instanceof Error ? err : new Error(String(err));
}
