import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * Signed tokens of the e-mail links (open pixel, click, unsubscribe, sender verification): the payload
 * (kind and ids, a click's original URL) in base64url, then an HMAC-SHA256 (128 bits) under a key derived
 * from JWT_SECRET with its own HKDF label. Nothing can be forged, changed or enumerated without the key;
 * changing JWT_SECRET invalidates the links already sent (they answer 404).
 */
export type TrackingKind = "o" | "c" | "u" | "v" | "b";
type Part = string | number;

const keys = new Map<string, Buffer>();
function keyOf(appSecret: string): Buffer {
  let key = keys.get(appSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", appSecret, "", "atende/email-tracking/v1", 32));
    keys.set(appSecret, key);
  }
  return key;
}

const mac = (appSecret: string, payload: string) => createHmac("sha256", keyOf(appSecret)).update(payload).digest().subarray(0, 16);

export function signTrackingToken(appSecret: string, kind: TrackingKind, parts: Part[]): string {
  const payload = Buffer.from(JSON.stringify([kind, ...parts]), "utf8").toString("base64url");
  return `${payload}.${mac(appSecret, payload).toString("base64url")}`;
}

/** The token's parts when it is genuine and of this kind, else null. */
export function readTrackingToken(appSecret: string, kind: TrackingKind, token: string): Part[] | null {
  if (token.length > 8192) return null;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const given = Buffer.from(signature, "base64url");
  const expected = mac(appSecret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    // eslint-disable-next-line no-restricted-syntax -- a signed payload that is not JSON cannot happen; a null answer is a 404
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value[0] !== kind) return null;
  return value.slice(1) as Part[];
}
