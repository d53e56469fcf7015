/**
 * The key-encryption keys that seal stored secrets (docs/architecture.md "Secrets at rest"), read from
 * SECRETS_KEYS: `kid:base64key,kid:base64key`, each key 32 bytes. The first key seals new values; every
 * key listed opens. Rotation: put a new key first, restart, run `npm run secrets:rotate -w apps/server`
 * (or let the daily job do it), then drop the old key once nothing is sealed under it.
 */
export interface KeyRing {
  /** The key id that seals. */
  primary: string;
  keys: ReadonlyMap<string, Buffer>;
}

/**
 * The development key: public (it is in the source), so it protects nothing. It lets a development or
 * test server run without configuration; production refuses it, and refuses to start without SECRETS_KEYS.
 */
export const DEV_SECRETS_KEY_ID = "dev-insecure";
export const DEV_SECRETS_KEYS = `${DEV_SECRETS_KEY_ID}:${Buffer.alloc(32, "atende-dev-only-not-a-secret!").toString("base64")}`;

export class KeyRingError extends Error {}

const KID = /^[A-Za-z0-9_-]{1,32}$/;

export function parseKeyRing(value: string): KeyRing {
  const keys = new Map<string, Buffer>();
  let primary = "";
  for (const part of value.split(",").map((p) => p.trim()).filter(Boolean)) {
    const at = part.indexOf(":");
    const kid = at > 0 ? part.slice(0, at) : "";
    if (!KID.test(kid)) throw new KeyRingError("SECRETS_KEYS: each entry is kid:base64key, the kid made of letters, digits, - or _ (at most 32)");
    const key = Buffer.from(part.slice(at + 1), "base64");
    if (key.length !== 32) throw new KeyRingError(`SECRETS_KEYS: the key "${kid}" must be 32 bytes in base64 (e.g. openssl rand -base64 32)`);
    if (keys.has(kid)) throw new KeyRingError(`SECRETS_KEYS: the key id "${kid}" is listed twice`);
    keys.set(kid, key);
    primary ||= kid;
  }
  if (!primary) throw new KeyRingError("SECRETS_KEYS lists no key");
  return { primary, keys };
}

/**
 * SECRETS_KEYS, or the development key outside production. Production needs its own keys: the
 * development key (public) is refused there, first or anywhere in the list.
 */
export function loadKeyRing(value: string | undefined, production: boolean): KeyRing {
  if (!value?.trim()) {
    if (production) throw new KeyRingError("SECRETS_KEYS must be set in production (kid:base64key, 32 random bytes: openssl rand -base64 32)");
    return parseKeyRing(DEV_SECRETS_KEYS);
  }
  const ring = parseKeyRing(value);
  const dev = parseKeyRing(DEV_SECRETS_KEYS).keys.get(DEV_SECRETS_KEY_ID)!;
  if (production && [...ring.keys.values()].some((k) => k.equals(dev))) {
    throw new KeyRingError("SECRETS_KEYS holds the development key, which is public: production needs keys of its own");
  }
  return ring;
}
