import { channel, type EmailCampaignEvent } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { campaignRooms } from "../campaigns/events.js";
import { presentEmailCampaign } from "./presenter.js";
import { findEmailCampaign } from "./repository.js";

/** Emits company-{id}-email-campaign to the company's supervisors and admins (the WhatsApp list's audience). */
export async function emitEmailCampaign(ctx: AppContext, companyId: number, campaignId: number, action: EmailCampaignEvent["action"]): Promise<void> {
  const row = await findEmailCampaign(ctx.sql, companyId, campaignId);
  if (!row) return;
  const event: EmailCampaignEvent = { action, campaign: presentEmailCampaign(row) };
  ctx.realtime.emit(campaignRooms(companyId), channel.emailCampaign(companyId), event);
}

const pending = new Map<number, { companyId: number; timer: NodeJS.Timeout }>();

/**
 * Progress updates (sends, opens, clicks) at most once a second per campaign: the first change arms a
 * timer, later ones within the second ride on it.
 */
export function notifyEmailCampaign(ctx: AppContext, companyId: number, campaignId: number): void {
  if (pending.has(campaignId)) return;
  const timer = setTimeout(() => {
    pending.delete(campaignId);
    emitEmailCampaign(ctx, companyId, campaignId, "update").catch((err: unknown) =>
      ctx.log.warn({ err, companyId, campaignId }, "e-mail campaign update not emitted; the list's 30 s refresh shows it"),
    );
  }, 1000);
  timer.unref();
  pending.set(campaignId, { companyId, timer });
}
