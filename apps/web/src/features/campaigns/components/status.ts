import { CAMPAIGN_STATUSES, type CampaignStatus } from "@atende/shared";

/** The one map of status → label key and chip color (spec §4); anything else is 'Desconhecido'. */
export const STATUS_COLORS: Record<CampaignStatus, "default" | "primary" | "secondary" | "error" | "info" | "success" | "warning"> = {
  READY: "success",
  ANALYZING: "info",
  ERROR: "error",
  RUNNING: "primary",
  FINISHED: "default",
  WAITING: "warning",
  PAUSED: "secondary",
  CANCELLED: "default",
};

export const isKnownStatus = (s: string): s is CampaignStatus => (CAMPAIGN_STATUSES as readonly string[]).includes(s);
export const statusKey = (s: string) => `campaigns.status.${isKnownStatus(s) ? s : "unknown"}`;
