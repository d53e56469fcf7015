import { LRUCache } from "lru-cache";

/**
 * Failed Messages API authentications per client address. The route's own limit counts per token,
 * which a guesser trying a new token on every call never reaches; this one counts an address's wrong
 * tokens and, once past the limit, refuses every call from that address (even one with a right
 * token) until the window ends. Kept in memory: each server process limits on its own.
 */
export class BadTokenLimit {
  private readonly failures: LRUCache<string, { count: number }>;

  constructor(
    readonly maxFailures: number,
    windowMs: number,
  ) {
    // the window starts at an address's first failure (noUpdateTTL); the bound keeps memory flat
    this.failures = new LRUCache({ max: 50_000, ttl: windowMs, noUpdateTTL: true, ttlAutopurge: false });
  }

  blocked(address: string): boolean {
    return (this.failures.get(address)?.count ?? 0) >= this.maxFailures;
  }

  fail(address: string): void {
    const entry = this.failures.get(address);
    if (entry) entry.count += 1;
    else this.failures.set(address, { count: 1 });
  }
}
