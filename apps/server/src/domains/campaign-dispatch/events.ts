import { channel } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { campaignRooms } from "../campaigns/events.js";

/** Who receives campaign events: the company's supervisors and admins (campaigns are supervisor+). */

interface CampaignEventRow {
  id: number;
  company_id: number;
  status: string;
  account_violation: string;
  error_message: string;
  count_total: number;
  count_invalid: number;
  count_processed: number;
  count_sent: number;
  count_delivered: number;
  count_read: number;
  count_failed: number;
  count_expired: number;
  count_replied: number;
  started_at: Date | null;
  finished_at: Date | null;
}

export function presentCampaignProgress(r: CampaignEventRow) {
  return {
    id: r.id,
    status: r.status,
    accountViolation: r.account_violation,
    errorMessage: r.error_message,
    countTotal: r.count_total,
    countInvalid: r.count_invalid,
    countProcessed: r.count_processed,
    countSent: r.count_sent,
    countDelivered: r.count_delivered,
    countRead: r.count_read,
    countFailed: r.count_failed,
    countExpired: r.count_expired,
    countReplied: r.count_replied,
    startedAt: r.started_at?.toISOString() ?? null,
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}

const MIN_GAP_MS = 1000;

/**
 * `campaign-updated` with the counters and status, at most once a second per campaign (per process):
 * the first change emits at once, later ones within the second are merged into one emit at its end.
 */
class CampaignNotifier {
  private readonly last = new Map<number, number>();
  private readonly due = new Map<number, NodeJS.Timeout>();

  constructor(private readonly ctx: AppContext) {}

  changed(campaignIds: Iterable<number>): void {
    for (const id of campaignIds) {
      if (this.due.has(id)) continue;
      const wait = Math.max(0, (this.last.get(id) ?? 0) + MIN_GAP_MS - Date.now());
      const t = setTimeout(() => {
        this.due.delete(id);
        this.last.set(id, Date.now());
        this.emit(id).catch((err: unknown) => this.ctx.log.error({ err, campaignId: id }, "campaign-updated could not be emitted"));
      }, wait);
      this.due.set(id, t);
    }
  }

  private async emit(id: number): Promise<void> {
    const row = await this.ctx.sql.maybe<CampaignEventRow>(
      `SELECT id, company_id, status, account_violation, error_message, count_total, count_invalid, count_processed, count_sent,
              count_delivered, count_read, count_failed, count_expired, count_replied, started_at, finished_at
         FROM campaigns WHERE id = $1`,
      [id],
    );
    if (!row) return;
    this.ctx.realtime.emit(campaignRooms(row.company_id), channel.campaignUpdated(row.company_id), { action: "update", campaign: presentCampaignProgress(row) });
  }

  stop(): void {
    for (const t of this.due.values()) clearTimeout(t);
    this.due.clear();
  }
}

const notifiers = new WeakMap<AppContext, CampaignNotifier>();

export function campaignNotifier(ctx: AppContext): CampaignNotifier {
  let n = notifiers.get(ctx);
  if (!n) {
    n = new CampaignNotifier(ctx);
    notifiers.set(ctx, n);
  }
  return n;
}
