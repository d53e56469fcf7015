import type { AppContext } from "../../core/context.js";
import type { BusinessSecrets } from "../businesses/repository.js";
import type { WebhookLookups } from "./lookups.js";
import { processDeliveries, WEBHOOK_JOB, type StoredDelivery } from "./process-event.js";

interface Item {
  event: StoredDelivery;
  business: BusinessSecrets;
}

/**
 * Stored deliveries are processed at once in the process that received them, from the body and
 * business the POST already holds (nothing is read back); a durable job takes over a delivery that
 * fails here (with the queue's retries) or is still pending a minute later (this process stopped, or
 * its line was full: see the sweep in routes.ts). A few runs go at the same time (each holds at most
 * a few database connections, so requests keep theirs); each takes everything that gathered in the
 * line meanwhile (up to `take` deliveries) and stores their messages together, so a busier number
 * costs fewer statements per message. Waiting for a job worker's poll would add up to a second to
 * every message (issue 4 item 7: p95 < 100 ms).
 */
export class InlineWebhookRunner {
  private active = 0;
  private readonly waiting: Item[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly lookups: WebhookLookups,
    private readonly parallel = 4,
    private readonly maxWaiting = 20_000,
    private readonly take = 50,
  ) {}

  push(event: StoredDelivery, business: BusinessSecrets): void {
    if (this.waiting.length < this.maxWaiting) this.waiting.push({ event, business });
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
          failed = await processDeliveries(this.ctx, this.lookups, batch);
        } catch {
          failed = new Map(batch.map((i) => [i.event.id, null]));
        }
        // recorded on the event: a job takes it over now, with the queue's retries and backoff
        for (const id of failed.keys()) await this.ctx.jobs.send(WEBHOOK_JOB, { eventId: id }, { singletonKey: `webhook-${id}` }).catch(() => undefined);
      }
    } finally {
      this.active--;
    }
  }
}
