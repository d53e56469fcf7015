import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Work held back until what caused it is final and answered: a real-time emit made inside a
 * transaction waits for its COMMIT (and is dropped on ROLLBACK: nobody hears of a change that did not
 * happen), and one made while a request is handled waits until the response has been sent, so the
 * request's answer never waits for a broadcast to thousands of sockets (docs/architecture.md
 * "Real-time: emitted after commit and after the answer"). Outside both it runs at once.
 */
export class HeldWork {
  private jobs: (() => void)[] | null = [];

  /** Holds `job` while open; once released or dropped, runs it at once. */
  add(job: () => void): void {
    if (this.jobs) this.jobs.push(job);
    else job();
  }

  /** Hands every held job to `run` (in order) and lets later ones through at once. */
  release(run: (job: () => void) => void = (job) => job()): void {
    const jobs = this.jobs ?? [];
    this.jobs = null;
    for (const job of jobs) run(job);
  }

  /** Forgets the held jobs (a rolled-back transaction); later ones run at once. */
  drop(): void {
    this.jobs = null;
  }
}

const transaction = new AsyncLocalStorage<HeldWork>();
const request = new AsyncLocalStorage<HeldWork>();

/** Runs `fn` as a transaction's body: work added meanwhile (`afterCommit`) is held in `held`. */
export function holdWithinTransaction<T>(held: HeldWork, fn: () => Promise<T>): Promise<T> {
  return transaction.run(held, fn);
}

/** Runs `job` once the current transaction has committed and the current request has been answered. */
export function afterCommit(job: () => void): void {
  const tx = transaction.getStore();
  if (tx) tx.add(job);
  else afterResponse(job);
}

/** Runs `job` once the current request has been answered (at once outside a request). */
export function afterResponse(job: () => void): void {
  const held = request.getStore();
  if (held) held.add(job);
  else job();
}

/** Enters a request's scope for `next` (its hooks and handler): `held` is released when it is answered. */
export function runHoldingForRequest(held: HeldWork, next: () => void): void {
  request.run(held, next);
}
