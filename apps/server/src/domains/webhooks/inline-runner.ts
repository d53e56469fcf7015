import type { AppContext } from "../../core/context.js";
import { processWebhookEvents, WEBHOOK_JOB } from "./process-event.js";

/**
 * Stored deliveries are processed at once in the process that received them; a durable job takes
 * over a delivery that fails here (with the queue's retries) or is still pending a minute later (this
 * process stopped, or its line was full: see the sweep in routes.ts). A bounded number run at the same
 * time (each holds at most a few database connections, so requests keep theirs); beyond that they wait
 * in a bounded in-memory line, and each run takes what has gathered there (up to `take` deliveries)
 * to process together. Waiting for a job worker's poll would add up to a second to every message
 * (issue 4 item 7: p95 < 100 ms).
 */
export class InlineWebhookRunner {
  private active = 0;
  private readonly waiting: number[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly parallel = 10,
    private readonly maxWaiting = 100_000,
    /** Deliveries taken together when several wait (their messages are stored together). */
    private readonly take = 25,
  ) {}

  push(eventId: number): void {
    if (this.waiting.length < this.maxWaiting) this.waiting.push(eventId);
    if (this.active < this.parallel) void this.run();
  }

  private async run(): Promise<void> {
    this.active++;
    try {
      for (;;) {
        const batch = this.waiting.splice(0, this.take);
        if (!batch.length) return;
        let failed: Map<number, unknown>;
        try {
          failed = await processWebhookEvents(this.ctx, batch);
        } catch {
          failed = new Map(batch.map((id) => [id, null]));
        }
        // recorded on the event: a job takes it over now, with the queue's retries and backoff
        for (const id of failed.keys()) await this.ctx.jobs.send(WEBHOOK_JOB, { eventId: id }, { singletonKey: `webhook-${id}` }).catch(() => undefined);
      }
    } finally {
      this.active--;
    }
  }
}
