import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { availableParallelism } from "node:os";
import { AppError } from "./errors.js";
import { FairQueue, QueueFullError } from "./fair-queue.js";

const scryptRaw = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

// scrypt with N=2^15, r=8, p=1 (OWASP's recommended minimum); stored as scrypt$N$r$p$salt$hash.
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

/**
 * Every scrypt runs through this queue: one fewer at a time than the machine has cores, at least one
 * and at most 4 (each takes a libuv thread, a whole core and 32 MB), fair between client addresses, at
 * most 2 per address and 64 waiting. A flood of logins therefore neither takes every core (on two
 * cores, two hashes at once left the real user's login, its queries and PostgreSQL a third of a core
 * each: 1.3-4.1 s under 200 bogus logins) nor makes a real user wait behind hundreds of bogus hashes;
 * the surplus is refused at once with ERR_TOO_MANY_REQUESTS.
 */
const hashing = new FairQueue({ concurrency: Math.min(4, Math.max(1, availableParallelism() - 1)), perKey: 2, maxWaiting: 64 });

/** The queue key of work not started by an anonymous client (seeding, a signed-in user's form): never refused. */
export const LOCAL_WORK = "local";

async function scrypt(key: string, password: string, salt: Buffer, keylen: number, opts: ScryptOptions, rank = 0): Promise<Buffer> {
  try {
    return await hashing.run(key, () => scryptRaw(password, salt, keylen, opts), key !== LOCAL_WORK, rank);
  } catch (err) {
    if (err instanceof QueueFullError) throw new AppError("ERR_TOO_MANY_REQUESTS", "Muitas tentativas. Aguarde e tente novamente.");
    throw err;
  }
}

/** `queueKey`: the client address the work is done for (see `hashing`). */
export async function hashPassword(password: string, queueKey = LOCAL_WORK): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(queueKey, password, salt, KEYLEN, PARAMS);
  return storedHash(PARAMS, salt, key);
}

/** A scrypt result in its stored form, `scrypt$N$r$p$salt$hash` (what `verifyPassword` reads back). */
export function storedHash(cost: { N: number; r: number; p: number }, salt: Buffer, key: Buffer): string {
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/**
 * `rank` orders the queue (core/fair-queue.ts): a login for an account that exists (0) goes before
 * one for an unknown e-mail (1), so a flood of invented addresses, arriving before and after a real
 * user's login, does not hold it back (200 of them from 50 addresses held it up to 4.8 s). Without a
 * flood both take one hash's time, so the answer's timing still does not tell which e-mails exist.
 */
export async function verifyPassword(password: string, stored: string, queueKey = LOCAL_WORK, rank = 0): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split("$");
  if (alg !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(
    queueKey,
    password,
    Buffer.from(salt, "base64url"),
    expected.length,
    { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem },
    rank,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a password nobody knows, so unknown e-mails take as long as wrong passwords. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(12).toString("hex"));
  return dummyHash;
}
