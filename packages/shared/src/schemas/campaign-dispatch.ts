import { z } from "zod";

/** The campaign's progress as start, pause and `campaign-updated` return it. */
export const campaignProgress = z.object({
  id: z.number(),
  status: z.string().describe("ANALYZING, READY, ERROR, RUNNING, WAITING, PAUSED, FINISHED or CANCELLED"),
  accountViolation: z.string().describe("Meta's text while the account or number blocks sending"),
  errorMessage: z.string(),
  countTotal: z.number(),
  countInvalid: z.number(),
  countProcessed: z.number().describe("rows that left pending/sending"),
  countSent: z.number().describe("sent, delivered or read"),
  countDelivered: z.number().describe("delivered or read"),
  countRead: z.number(),
  countFailed: z.number(),
  countExpired: z.number(),
  countReplied: z.number(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type CampaignProgress = z.infer<typeof campaignProgress>;

/** Campaign statuses start accepts (READY, PAUSED, WAITING) and pause accepts (RUNNING, WAITING). */
export const CAMPAIGN_STARTABLE = ["READY", "PAUSED", "WAITING"] as const;
export const CAMPAIGN_PAUSABLE = ["RUNNING", "WAITING"] as const;

/** The sandbox business's simulated failure share (0 to 1). */
export const sandboxFailureRateInput = z.object({ failureRate: z.number().min(0).max(1) });
export const sandboxFailureRate = z.object({ businessId: z.number(), failureRate: z.number() });
