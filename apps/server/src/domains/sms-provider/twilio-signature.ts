import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * X-Twilio-Signature (https://www.twilio.com/docs/usage/webhooks/webhooks-security): HMAC-SHA1, keyed
 * with the account's auth token, over the full URL Twilio called (scheme, host, path, query) followed
 * by every POST parameter sorted by name, each name then its value; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string | string[]>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const v = params[name]!;
    for (const value of Array.isArray(v) ? [...v].sort() : [v]) data += name + value;
  }
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

export function validTwilioSignature(authToken: string, url: string, params: Record<string, string | string[]>, header: unknown): boolean {
  if (typeof header !== "string" || !header || !authToken) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** application/x-www-form-urlencoded → name → value (a repeated name → its values). */
export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
