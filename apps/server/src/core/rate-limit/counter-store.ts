/**
 * Fixed-window request counters shared by every rate limit of the server: the per-company and
 * per-token limits (request-limits.ts) and the routes' own limits (@fastify/rate-limit, through
 * fastify-store.ts). In memory each process counts alone; with REDIS_URL every process counts in
 * Redis (redis-counter-store.ts), so a limit holds across the web processes behind the proxy.
 */
export interface CounterStore {
  /**
   * Counts one more event under `key` and returns the count in the current window and the time
   * left in it. A window starts at its key's first event and lasts `windowMs`.
   */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The count in the key's current window, without counting (0 when there is none). */
  peek(key: string): Promise<number>;
  close(): Promise<void>;
}

export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number;
}

/** The counters of one process; the map is swept of ended windows once a window's length. */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private lastSweep = Date.now();

  constructor(
    private readonly now: () => number = Date.now,
    /** A bound on the keys kept (an attack on many keys must not grow memory without end). */
    private readonly maxKeys = 200_000,
  ) {}

  hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    this.sweep(now, windowMs);
    let w = this.windows.get(key);
    if (!w || w.endsAt <= now) {
      if (!w && this.windows.size >= this.maxKeys) {
        // the oldest key goes (Map keeps insertion order): its count starts again, the process stays bounded
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
      w = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return Promise.resolve({ count: w.count, resetMs: w.endsAt - now });
  }

  peek(key: string): Promise<number> {
    const w = this.windows.get(key);
    return Promise.resolve(w && w.endsAt > this.now() ? w.count : 0);
  }

  close(): Promise<void> {
    this.windows.clear();
    return Promise.resolve();
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
  }
}
