import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets a company stores for the server's own use (AI providers' API keys, integrations' service
 * accounts): encrypted at rest with AES-256-GCM under a key derived from JWT_SECRET (HKDF, its own
 * label), written as `v1:<iv>:<tag>:<ciphertext>` in base64url. Only the server reads them back; the
 * API answers with `maskSecret` (the last 4 characters). Changing JWT_SECRET makes them unreadable:
 * `openSecret` then throws SecretUnreadable and the owner types them again.
 */
export class SecretUnreadable extends Error {}

const keys = new Map<string, Buffer>();
function keyOf(appSecret: string): Buffer {
  let key = keys.get(appSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", appSecret, "", "atende/stored-secret/v1", 32));
    keys.set(appSecret, key);
  }
  return key;
}

export function sealSecret(appSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(appSecret), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(":");
}

export function openSecret(appSecret: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(":");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new SecretUnreadable("not a sealed secret");
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(appSecret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch (err) {
    throw new SecretUnreadable(`the secret cannot be read with this JWT_SECRET (${(err as Error).message})`);
  }
}

/** What the API shows of a secret: its last 4 characters, or "" when there is none. */
export function maskSecret(plain: string): string {
  return plain ? `••••${plain.slice(-4)}` : "";
}
