import { channel, type SmsCampaignEvent } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { campaignRooms } from "../campaigns/events.js";
import { presentSmsCampaign } from "./presenter.js";
import { findSmsCampaignById } from "./repository.js";

const MIN_GAP_MS = 1000;

/**
 * sms-campaign-created / sms-campaign-updated to the company's supervisors and admins (the rooms of
 * the WhatsApp list). Progress changes are merged: a campaign's counters (kept by its rows' triggers,
 * migration 0794) are emitted at most once a second per process; a status change (create, trigger,
 * pause...) goes at once.
 */
class SmsCampaignNotifier {
  private readonly last = new Map<number, number>();
  private readonly due = new Map<number, NodeJS.Timeout>();

  constructor(private readonly ctx: AppContext) {}

  async now(campaignId: number, action: SmsCampaignEvent["action"] = "update"): Promise<void> {
    const row = await findSmsCampaignById(this.ctx.sql, campaignId);
    if (!row) return;
    const event: SmsCampaignEvent = { action, campaign: presentSmsCampaign(row) };
    const name = action === "create" ? channel.smsCampaignCreated(row.company_id) : channel.smsCampaignUpdated(row.company_id);
    this.ctx.realtime.emit(campaignRooms(row.company_id), name, event);
  }

  /** Counters moved: emitted within a second. */
  changed(campaignIds: Iterable<number>): void {
    for (const id of campaignIds) {
      if (this.due.has(id)) continue;
      const wait = Math.max(0, (this.last.get(id) ?? 0) + MIN_GAP_MS - Date.now());
      const t = setTimeout(() => {
        this.due.delete(id);
        this.last.set(id, Date.now());
        this.now(id).catch((err: unknown) => this.ctx.log.error({ err, smsCampaignId: id }, "sms campaign counters could not be emitted"));
      }, wait);
      this.due.set(id, t);
    }
  }

  stop(): void {
    for (const t of this.due.values()) clearTimeout(t);
    this.due.clear();
  }
}

const notifiers = new WeakMap<AppContext, SmsCampaignNotifier>();

export function smsNotifier(ctx: AppContext): SmsCampaignNotifier {
  let n = notifiers.get(ctx);
  if (!n) {
    n = new SmsCampaignNotifier(ctx);
    notifiers.set(ctx, n);
  }
  return n;
}
