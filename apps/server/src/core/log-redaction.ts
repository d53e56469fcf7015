import type { FastifyRequest } from "fastify";
import { runContextMixin } from "./run-context.js";

/** Path segments after these prefixes are secrets or personal data (reset codes, new passwords, e-mails). */
const SECRET_PATHS = [/^(\/api\/resetpasswords)\/.*/i, /^(\/api\/forgetpassword)\/.*/i];
const SECRET_QUERY = /pass|token|code|secret|key/i;
const MASK = "[redacted]";

/** The URL as it may appear in logs: secret path segments and query values masked. */
export function redactUrl(url: string): string {
  const [path = "", query] = url.split(/\?(.*)/s, 2);
  let safePath = path;
  for (const pattern of SECRET_PATHS) safePath = safePath.replace(pattern, `$1/${MASK}`);
  if (!query) return safePath;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_QUERY.test(key)) params.set(key, MASK);
  return `${safePath}?${params.toString()}`;
}

/**
 * Fastify logger options: request lines carry the redacted URL, and password fields or credentials
 * anywhere in a logged object are censored by pino's `redact`; a line logged during a request or a
 * job carries its request id (and job), whichever logger wrote it.
 */
export function loggerOptions(level: string) {
  return {
    level,
    // lines of the server's logger written during a request or a job carry its ids (run-context.ts)
    mixin: runContextMixin,
    redact: {
      paths: [
        "password",
        "currentPassword",
        "newPassword",
        "*.password",
        "*.currentPassword",
        "*.newPassword",
        "*.passwordHash",
        "*.password_hash",
        "req.headers.authorization",
        "req.headers.cookie",
      ],
      censor: MASK,
    },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}
