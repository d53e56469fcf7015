/** Runs `work` every `everyMs` (never two at once) until stopped; a failed run goes to `onError` and the next one tries again. */
export class Poller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly work: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.running = this.work()
        .catch(this.onError)
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(tick, this.everyMs);
        });
    };
    this.timer = setTimeout(tick, this.everyMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
