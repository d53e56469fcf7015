import type { SmsCampaign } from "@atende/shared";

/** Spec §9: SMS delivery % = delivered / triggered (0 before any send); shown with `formatPercent`, two decimals. */
export const smsDeliveryPercent = (c: Pick<SmsCampaign, "delivered" | "triggered">): number => (c.triggered > 0 ? (c.delivered / c.triggered) * 100 : 0);
