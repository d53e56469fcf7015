/**
 * A line of work items handled in groups: `push` adds an item; up to `parallel` runs go at the same
 * time, each taking everything that has gathered (up to `maxGroup` items) and handing it to
 * `handle` together, until the line is empty. A busier line makes larger groups, so the fixed cost of
 * a group (a statement, a commit, a transaction) is paid fewer times per item. Items beyond
 * `maxWaiting` are not kept (the caller has a slower way for them). A group whose handler throws goes
 * to `onFailure` (handlers settle their items' outcome themselves; this is for what escaped them) and
 * the line goes on. With `gatherMs`, a run waits that long before taking its group, so a steady flow
 * of items that can wait (delivery receipts) makes a few large groups instead of many small ones.
 */
export class WorkLine<T> {
  private active = 0;
  private readonly waiting: T[] = [];

  constructor(
    private readonly handle: (group: T[]) => Promise<void>,
    private readonly o: { parallel: number; maxGroup: number; maxWaiting?: number; gatherMs?: number; onFailure: (err: unknown, group: T[]) => void },
  ) {}

  /** False when the line was full and the item was not kept. */
  push(item: T): boolean {
    const kept = this.waiting.length < (this.o.maxWaiting ?? Infinity);
    if (kept) this.waiting.push(item);
    if (this.active < this.o.parallel) void this.run();
    return kept;
  }

  private async run(): Promise<void> {
    this.active++;
    try {
      for (;;) {
        if (this.o.gatherMs && this.waiting.length < this.o.maxGroup) await new Promise((r) => setTimeout(r, this.o.gatherMs));
        const group = this.waiting.splice(0, this.o.maxGroup);
        if (!group.length) return;
        await this.handle(group).catch((err: unknown) => this.o.onFailure(err, group));
      }
    } finally {
      this.active--;
    }
  }
}
