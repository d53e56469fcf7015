import type { AppContext } from "../../core/context.js";
import { WorkLine } from "../../core/work-line.js";
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
 * line meanwhile (up to 50 deliveries) and stores their messages together, so a busier number costs
 * fewer statements per message. Waiting for a job worker's poll would add up to a second to every
 * message (target: p95 < 100 ms).
 */
export class InlineWebhookRunner {
  private readonly line: WorkLine<Item>;

  constructor(
    private readonly ctx: AppContext,
    private readonly lookups: WebhookLookups,
  ) {
    this.line = new WorkLine((group) => this.process(group), {
      parallel: 4,
      maxGroup: 50,
      maxWaiting: 20_000,
      onFailure: (err, group) =>
        ctx.log.error({ err, eventIds: group.map((i) => i.event.id) }, "webhook run failed; the pending sweep takes its deliveries over"),
    });
  }

  push(event: StoredDelivery, business: BusinessSecrets): void {
    this.line.push({ event, business });
  }

  private async process(group: Item[]): Promise<void> {
    let failed: Map<number, unknown>;
    try {
      failed = await processDeliveries(this.ctx, this.lookups, group);
    } catch (err) {
      // the whole group failed (the database): its rows stay pending, and jobs take them over below
      this.ctx.log.error({ err, eventIds: group.map((i) => i.event.id) }, "webhook deliveries could not be processed inline");
      failed = new Map(group.map((i) => [i.event.id, err]));
    }
    // recorded on the event: a job takes it over now, with the queue's retries and backoff
    for (const id of failed.keys()) {
      await this.ctx.jobs
        .send(WEBHOOK_JOB, { eventId: id }, { singletonKey: `webhook-${id}` })
        .catch((err: unknown) => this.ctx.log.error({ err, eventId: id }, "could not queue a webhook retry; the pending sweep takes it over if it is still pending"));
    }
  }
}
