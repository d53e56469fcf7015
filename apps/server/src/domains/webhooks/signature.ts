import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** X-Hub-Signature-256: "sha256=" + hex HMAC-SHA256 of the raw request body with the app secret. */
export function signBody(appSecret: string, raw: Buffer | string): string {
  return `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
}

export function validSignature(appSecret: string, raw: Buffer, header: string | string[] | undefined): boolean {
  if (!appSecret || typeof header !== "string" || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const expected = Buffer.from(signBody(appSecret, raw).slice(7), "hex");
  const given = Buffer.from(header.slice(7), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function sameSecret(a: string, b: string): boolean {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return a.length > 0 && timingSafeEqual(x, y);
}

export const sha256Hex = (raw: Buffer) => createHash("sha256").update(raw).digest("hex");
