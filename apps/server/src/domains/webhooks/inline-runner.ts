import type { AppContext } from "../../core/context.js";
import { processWebhookEvent, WEBHOOK_JOB } from "./process-event.js";

/**
 * Stored deliveries are processed at once in the process that received them (the durable job, queued
 * with a delay before the 200 answer, is the fallback: it finds the event processed and does nothing,
 * or processes it when this process stopped or failed). A bounded number run at the same time; beyond
 * that they wait in a bounded in-memory line, and beyond that they are left to their job. Waiting for
 * a job worker's poll would add up to a second to every message (issue 4 item 7: p95 < 100 ms).
 */
export class InlineWebhookRunner {
  private active = 0;
  private readonly waiting: number[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly parallel = 16,
    private readonly maxWaiting = 5000,
  ) {}

  push(eventId: number): void {
    if (this.active < this.parallel) void this.run(eventId);
    else if (this.waiting.length < this.maxWaiting) this.waiting.push(eventId);
  }

  private async run(eventId: number): Promise<void> {
    this.active++;
    try {
      await processWebhookEvent(this.ctx, eventId);
    } catch {
      // recorded on the event: a job takes it over now, with the queue's retries and backoff
      await this.ctx.jobs.send(WEBHOOK_JOB, { eventId }, { singletonKey: `webhook-${eventId}` }).catch(() => undefined);
    } finally {
      this.active--;
      const next = this.waiting.shift();
      if (next !== undefined) void this.run(next);
    }
  }
}
