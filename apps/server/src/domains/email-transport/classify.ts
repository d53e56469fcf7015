import type { SendResult } from "./driver.js";

/** nodemailer's error codes for a connection that failed or dropped before the server's final answer. */
const CONNECTION_CODES = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ECONNREFUSED", "ECONNRESET", "ETLS", "EAUTH"]);

/**
 * An SMTP failure as the campaign engine treats it (RFC 5321 §4.2.1): a 5yz reply is permanent (not
 * delivered, with the code); a 4yz reply is transient (retry); a connection that failed before a final
 * reply is retried too (the message was not accepted: only a 250 after DATA commits the server).
 * EAUTH is retried: it is our relay's configuration, not the recipient's fault.
 */
export function classifySmtpError(err: unknown): Exclude<SendResult, { kind: "accepted" }> {
  const e = err as { responseCode?: number; code?: string; response?: string; message?: string };
  const message = (e.response || e.message || String(err)).slice(0, 1000);
  const code = typeof e.responseCode === "number" ? e.responseCode : null;
  if (code !== null && code >= 500 && code < 600) return { kind: "rejected", code, message };
  if (code !== null && code >= 400 && code < 500) return { kind: "retry", code, message };
  if (e.code && CONNECTION_CODES.has(e.code)) return { kind: "retry", code, message };
  // anything else (a message nodemailer could not build) would fail the same way again
  return { kind: "rejected", code, message };
}
