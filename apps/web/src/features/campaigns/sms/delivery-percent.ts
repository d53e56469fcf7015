import type { SmsCampaign } from "@atende/shared";

/** Spec §9: SMS delivery % = delivered / triggered, two decimals. */
export const smsDeliveryPercent = (c: Pick<SmsCampaign, "delivered" | "triggered">) => (c.triggered > 0 ? ((c.delivered / c.triggered) * 100).toFixed(2) : "0.00");
