/** Thrown when a key already has its share of work waiting, or its waiting job was displaced. */
export class QueueFullError extends Error {
  constructor(readonly key: string) {
    super(`queue full for ${key}`);
  }
}

interface Job {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  seq: number;
  rank: number;
}

/**
 * Runs at most `concurrency` jobs at once for keys (client addresses) that compete for them:
 * - next goes a job of the lowest rank waiting (a caller's judgement: a login for an account that
 *   exists before one for an unknown e-mail), then of the waiting key served least so far, and among
 *   equals the one that arrived last
 *   (LIFO under overload: a burst from many addresses does not make a later newcomer wait behind it);
 * - a key may hold `perKey` jobs (running or waiting); more are refused at once (QueueFullError);
 * - at most `maxWaiting` jobs wait: when full, a newcomer (a key holding nothing) displaces the oldest
 *   waiting job of the highest rank, then of the busiest key, which is refused; anyone else is refused.
 * A refusal is immediate, so a flood gets fast answers rather than seconds of waiting. p-limit and
 * p-queue have neither per-key fairness nor per-key caps, hence these lines.
 */
export class FairQueue {
  private readonly waiting = new Map<string, Job[]>();
  private readonly held = new Map<string, number>();
  /** Jobs started per key while it has work held: the key served least goes next. */
  private readonly served = new Map<string, number>();
  private waitingCount = 0;
  private running = 0;
  private seq = 0;

  constructor(private readonly opts: { concurrency: number; perKey: number; maxWaiting: number }) {}

  /**
   * `capped: false` for trusted work (seeding, a signed-in user's form) that must never be refused;
   * `rank`: lower goes first (0 by default).
   */
  run<T>(key: string, task: () => Promise<T>, capped = true, rank = 0): Promise<T> {
    const held = this.held.get(key) ?? 0;
    if (capped && (held >= this.opts.perKey || (this.waitingCount >= this.opts.maxWaiting && (held > 0 || !this.displaceOne(rank))))) {
      return Promise.reject(new QueueFullError(key));
    }
    this.held.set(key, held + 1);
    return new Promise<T>((resolve, reject) => {
      const jobs = this.waiting.get(key) ?? [];
      jobs.push({ run: task, resolve: resolve as (v: unknown) => void, reject, seq: this.seq++, rank });
      this.waiting.set(key, jobs);
      this.waitingCount++;
      this.next();
    });
  }

  /** The waiting key whose next job has the lowest rank, then served least so far; among equals the one whose next job arrived last. */
  private fairestKey(): string {
    let best = "";
    let bestRank = Infinity;
    let bestServed = Infinity;
    let bestSeq = -1;
    for (const [key, jobs] of this.waiting) {
      const rank = jobs[0]?.rank ?? 0;
      const n = this.served.get(key) ?? 0;
      const seq = jobs[0]?.seq ?? -1;
      const better = rank < bestRank || (rank === bestRank && (n < bestServed || (n === bestServed && seq > bestSeq)));
      if (better) [best, bestRank, bestServed, bestSeq] = [key, rank, n, seq];
    }
    return best;
  }

  /**
   * Refuses the oldest waiting job of the key whose next job has the highest rank, then holding (then
   * served) most, and never of a lower rank than the newcomer's (`rank`); false if none.
   */
  private displaceOne(rank: number): boolean {
    let victim: string | undefined;
    let most = -1;
    for (const [key, jobs] of this.waiting) {
      if ((jobs[0]?.rank ?? 0) < rank) continue;
      const weight = (jobs[0]?.rank ?? 0) * 1e12 + (this.held.get(key) ?? 0) * 1_000_000 + (this.served.get(key) ?? 0);
      if (weight > most) [victim, most] = [key, weight];
    }
    if (victim === undefined) return false;
    const jobs = this.waiting.get(victim) as Job[];
    const job = jobs.shift() as Job;
    if (!jobs.length) this.waiting.delete(victim);
    this.waitingCount--;
    this.release(victim);
    job.reject(new QueueFullError(victim));
    return true;
  }

  private release(key: string): void {
    const left = (this.held.get(key) ?? 1) - 1;
    if (left > 0) {
      this.held.set(key, left);
      return;
    }
    this.held.delete(key);
    this.served.delete(key);
  }

  private next(): void {
    while (this.running < this.opts.concurrency && this.waitingCount > 0) {
      const key = this.fairestKey();
      const jobs = this.waiting.get(key) as Job[];
      const job = jobs.shift() as Job;
      if (!jobs.length) this.waiting.delete(key);
      this.served.set(key, (this.served.get(key) ?? 0) + 1);
      this.waitingCount--;
      this.running++;
      job
        .run()
        .then(job.resolve, job.reject)
        .finally(() => {
          this.running--;
          this.release(key);
          this.next();
        });
    }
  }
}
