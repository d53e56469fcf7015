import { OutboundFailed, OutboundRefused, outboundRequest, type OutboundResponse } from "../../../core/outbound-http.js";

/** A bot call that failed for good (after its retries): the ticket goes to a human. */
export class BotCallFailed extends Error {}

const ATTEMPTS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One call to a company's bot, through the outbound guard (no private addresses unless
 * OUTBOUND_ALLOWED_HOSTS names them; 15 s timeout; 1 MB answer), retried at most 3 times on a network
 * failure, a timeout, 429 or 5xx; a refused address or another 4xx is not retried.
 */
export async function botCall(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; timeoutMs?: number },
  label: string,
): Promise<OutboundResponse> {
  let last = "";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let res: OutboundResponse;
    try {
      res = await outboundRequest(url, {
        method: init.method ?? "POST",
        body: init.body,
        headers: { accept: "application/json", ...init.headers },
        timeoutMs: init.timeoutMs ?? 15_000,
        maxBytes: 1024 * 1024,
      });
    } catch (err) {
      if (err instanceof OutboundRefused || err instanceof TypeError) throw new BotCallFailed(`${label}: ${err.message}`);
      if (!(err instanceof OutboundFailed)) throw err;
      last = err.message;
      if (attempt < ATTEMPTS) await sleep(200 * attempt);
      continue;
    }
    if (res.status >= 200 && res.status < 300) return res;
    last = `HTTP ${res.status}`;
    if (res.status !== 429 && res.status < 500) break;
    if (attempt < ATTEMPTS) await sleep(200 * attempt);
  }
  throw new BotCallFailed(`${label}: ${last}`);
}

export const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { "content-type": "application/json" } });

/** The answer's JSON, or BotCallFailed when it is not JSON. */
export function parseJson<T>(res: OutboundResponse, label: string): T {
  try {
    return res.json<T>();
  } catch {
    throw new BotCallFailed(`${label}: the answer is not JSON`);
  }
}
