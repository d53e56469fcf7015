/** Thrown when a key already has its share of work waiting, or the queue is full. */
export class QueueFullError extends Error {
  constructor(readonly key: string) {
    super(`queue full for ${key}`);
  }
}

interface Job {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs at most `concurrency` jobs at once, taking next the waiting key served least (round robin
 * by key, a client address), so one flooding key waits behind itself and a newcomer waits for at
 * most about one job of each other busy key. A key may hold `perKey` jobs (running or waiting) and the queue `maxWaiting`
 * jobs in all; beyond that a job is refused at once (QueueFullError) instead of waiting for seconds.
 * p-limit and p-queue have no per-key fairness or per-key cap, hence these few lines.
 */
export class FairQueue {
  private readonly waiting = new Map<string, Job[]>();
  private readonly held = new Map<string, number>();
  /** Jobs started per key while it has work held: the key served least goes next. */
  private readonly served = new Map<string, number>();
  private waitingCount = 0;
  private running = 0;

  constructor(private readonly opts: { concurrency: number; perKey: number; maxWaiting: number }) {}

  /** `capped: false` for trusted work (seeding, an administrator's form) that must never be refused. */
  run<T>(key: string, task: () => Promise<T>, capped = true): Promise<T> {
    if (capped && ((this.held.get(key) ?? 0) >= this.opts.perKey || this.waitingCount >= this.opts.maxWaiting)) {
      return Promise.reject(new QueueFullError(key));
    }
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    return new Promise<T>((resolve, reject) => {
      const jobs = this.waiting.get(key) ?? [];
      jobs.push({ run: task, resolve: resolve as (v: unknown) => void, reject });
      this.waiting.set(key, jobs);
      this.waitingCount++;
      this.next();
    });
  }

  /** The waiting key served least so far (the oldest such key on a tie). */
  private fairestKey(): string {
    let best = "";
    let bestServed = Infinity;
    for (const key of this.waiting.keys()) {
      const n = this.served.get(key) ?? 0;
      if (n < bestServed) [best, bestServed] = [key, n];
    }
    return best;
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
          const left = (this.held.get(key) ?? 1) - 1;
          if (left > 0) this.held.set(key, left);
          else {
            this.held.delete(key);
            this.served.delete(key);
          }
          this.next();
        });
    }
  }
}
