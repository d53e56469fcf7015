import { channel, type CampaignEvent } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { rooms } from "../../core/realtime.js";
import { presentCampaign } from "./presenter.js";
import { findCampaign } from "./repository.js";

/**
 * Who receives campaign events: the company's supervisors and administrators (the profiles the
 * /campaigns page is open to; super users are administrators). Never plain users, never another company.
 */
export function campaignRooms(companyId: number): string[] {
  return [rooms.profile(companyId, "admin"), rooms.profile(companyId, "supervisor")];
}

/** Emits the campaign as it stands on campaign-created or campaign-updated. */
export async function emitCampaign(ctx: AppContext, companyId: number, campaignId: number, action: CampaignEvent["action"]): Promise<void> {
  const row = await findCampaign(ctx.sql, companyId, campaignId);
  if (!row) return;
  const event: CampaignEvent = { action, campaign: presentCampaign(row) };
  const name = action === "create" ? channel.campaignCreated(companyId) : channel.campaignUpdated(companyId);
  ctx.realtime.emit(campaignRooms(companyId), name, event);
}
