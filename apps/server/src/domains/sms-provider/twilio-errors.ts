import type { SmsSendOutcome } from "./driver.js";

/**
 * Twilio's REST error answers (https://www.twilio.com/docs/api/errors): JSON `{ code, message,
 * more_info, status }`. Classified for the dispatcher:
 * - 20429 / HTTP 429 (too many requests) and HTTP 5xx: retried later;
 * - 21211 invalid To, 21610 unsubscribed (the recipient replied STOP), 21614 not a mobile number,
 *   21612 / 21408 not reachable from this sender or region: failed for this number, permanently;
 * - 20003 authentication, 20404 account or resource not found, 21606 / 21659 / 21660 the From number
 *   cannot send, 21704 / 21701 messaging service problems: the account cannot send at all, the
 *   campaign pauses with the message;
 * - any other 4xx: failed for this message, not a mark against the number.
 */
const PERMANENT = new Set([21211, 21610, 21614, 21612, 21408, 21217, 21401, 21421]);
const ACCOUNT = new Set([20003, 20404, 20005, 21606, 21659, 21660, 21701, 21704, 21705, 21712, 30002]);

export function classifyTwilioError(httpStatus: number, body: unknown): SmsSendOutcome {
  const b = (typeof body === "object" && body !== null ? body : {}) as { code?: unknown; message?: unknown };
  const code = typeof b.code === "number" ? b.code : null;
  const message = (typeof b.message === "string" ? b.message : `HTTP ${httpStatus}`).slice(0, 1000);
  if (httpStatus === 429 || code === 20429) return { kind: "retry", code: code ?? 20429, message, rateLimited: true };
  if (httpStatus >= 500) return { kind: "retry", code, message, rateLimited: false };
  if (code !== null && PERMANENT.has(code)) return { kind: "failed", code, message, permanent: true };
  if (httpStatus === 401 || (code !== null && ACCOUNT.has(code))) return { kind: "account", code, message };
  return { kind: "failed", code, message, permanent: false };
}
