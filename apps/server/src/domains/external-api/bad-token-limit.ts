import type { CounterStore } from "../../core/rate-limit/counter-store.js";

/**
 * Failed Messages API authentications per client address. The route's own limit counts per token,
 * which a guesser trying a new token on every call never reaches; this one counts an address's wrong
 * tokens and, once past the limit, refuses every call from that address (even one with a right
 * token) until the window ends. Counted in the server's CounterStore: with REDIS_URL every process
 * counts together, so spreading the guesses over the web processes gains nothing.
 */
export class BadTokenLimit {
  constructor(
    private readonly counters: CounterStore,
    readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  async blocked(address: string): Promise<boolean> {
    return (await this.counters.peek(`bad-token:${address}`)) >= this.maxFailures;
  }

  async fail(address: string): Promise<void> {
    // the window starts at an address's first failure
    await this.counters.hit(`bad-token:${address}`, this.windowMs);
  }
}
