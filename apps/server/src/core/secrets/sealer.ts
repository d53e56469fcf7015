import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { KeyRing } from "./key-ring.js";

/**
 * Where a sealed value belongs: its company, its column and its row. It is the associated data of both
 * encryptions, so a value copied to another row, column or company does not open there.
 * companyId 0 stands for installation-wide values (no company).
 */
export interface SecretPlace {
  companyId: number;
  /** table.column, e.g. "businesses.access_token". */
  column: string;
  /** The row's key (its id, or a natural key). */
  row: string | number;
}

export class SecretUnreadable extends Error {}

const VERSION = "v2";

function aad(kid: string, place: SecretPlace): Buffer {
  return Buffer.from(`atende-secret|${VERSION}|${kid}|${place.companyId}|${place.column}|${place.row}`, "utf8");
}

function gcmSeal(key: Buffer, plain: Buffer, ad: Buffer): { iv: Buffer; tag: Buffer; data: Buffer } {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(ad);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), data };
}

function gcmOpen(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer, ad: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(ad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

const b64 = (b: Buffer) => b.toString("base64url");
const unb64 = (s: string) => Buffer.from(s, "base64url");

/** What a stored value is, as far as sealing goes. */
export type SealState = "empty" | "plaintext" | "v1" | "current" | "old-key";

/**
 * Seals and opens stored secrets with envelope encryption: each value gets a random data key (DEK);
 * the value is encrypted with the DEK (AES-256-GCM), the DEK with the key-encryption key named by its
 * id (AES-256-GCM), both bound to the value's place. Written as
 * `v2:<kid>:<wrapped DEK>:<iv>:<tag>:<ciphertext>` (base64url; the wrapped DEK is iv|ciphertext|tag).
 * `v1:` values (the former single-key format, a key derived from JWT_SECRET) still open, until the
 * start-up step re-seals them. An empty value means "none" and stays empty.
 */
export class SecretSealer {
  private readonly legacyKey: Buffer | null;

  constructor(
    private readonly ring: KeyRing,
    /** JWT_SECRET, for opening `v1:` values written before key ids existed. */
    legacySecret?: string,
  ) {
    this.legacyKey = legacySecret ? Buffer.from(hkdfSync("sha256", legacySecret, "", "atende/stored-secret/v1", 32)) : null;
  }

  get primaryKeyId(): string {
    return this.ring.primary;
  }

  seal(place: SecretPlace, plain: string): string {
    if (!plain) return "";
    const kid = this.ring.primary;
    const kek = this.ring.keys.get(kid)!;
    const ad = aad(kid, place);
    const dek = randomBytes(32);
    const wrapped = gcmSeal(kek, dek, ad);
    const value = gcmSeal(dek, Buffer.from(plain, "utf8"), ad);
    dek.fill(0);
    return [VERSION, kid, b64(Buffer.concat([wrapped.iv, wrapped.data, wrapped.tag])), b64(value.iv), b64(value.tag), b64(value.data)].join(":");
  }

  open(place: SecretPlace, sealed: string): string {
    if (!sealed) return "";
    if (sealed.startsWith("v1:")) return this.openV1(sealed);
    const parts = sealed.split(":");
    if (parts.length !== 6 || parts[0] !== VERSION) throw new SecretUnreadable(`${place.column} of row ${place.row} is not a sealed value`);
    const [, kid, wrapped, iv, tag, data] = parts as [string, string, string, string, string, string];
    const kek = this.ring.keys.get(kid);
    if (!kek) throw new SecretUnreadable(`${place.column} of row ${place.row} is sealed under the key "${kid}", which SECRETS_KEYS does not list`);
    const ad = aad(kid, place);
    try {
      const w = unb64(wrapped);
      const dek = gcmOpen(kek, w.subarray(0, 12), w.subarray(w.length - 16), w.subarray(12, w.length - 16), ad);
      const plain = gcmOpen(dek, unb64(iv), unb64(tag), unb64(data), ad).toString("utf8");
      dek.fill(0);
      return plain;
    } catch (err) {
      throw new SecretUnreadable(`${place.column} of row ${place.row} does not open (altered, or not sealed for this row): ${(err as Error).message}`);
    }
  }

  /** Whether a stored value needs (re-)sealing: plaintext, v1, or sealed under a key that no longer seals. */
  state(sealed: string): SealState {
    if (!sealed) return "empty";
    if (sealed.startsWith("v1:")) return "v1";
    const parts = sealed.split(":");
    if (parts.length === 6 && parts[0] === VERSION) return parts[1] === this.ring.primary ? "current" : "old-key";
    return "plaintext";
  }

  private openV1(sealed: string): string {
    const [, iv, tag, data] = sealed.split(":");
    if (!this.legacyKey || !iv || !tag || data === undefined) throw new SecretUnreadable("a v1 value cannot be opened without the JWT_SECRET that sealed it");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.legacyKey, unb64(iv));
      decipher.setAuthTag(unb64(tag));
      return Buffer.concat([decipher.update(unb64(data)), decipher.final()]).toString("utf8");
    } catch (err) {
      throw new SecretUnreadable(`a v1 value does not open with this JWT_SECRET (${(err as Error).message})`);
    }
  }
}

/** What the API shows of a secret: its last 4 characters, or "" when there is none. */
export function maskSecret(plain: string): string {
  return plain ? `••••${plain.slice(-4)}` : "";
}
