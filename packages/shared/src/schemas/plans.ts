import { z } from "zod";
import { MSG, requiredString } from "./common.js";

export const planFlagsShape = {
  useCampaigns: z.boolean().default(true),
  useSchedules: z.boolean().default(true),
  useInternalChat: z.boolean().default(true),
  useExternalApi: z.boolean().default(true),
  useKanban: z.boolean().default(true),
  useOpenAi: z.boolean().default(true),
  useIntegrations: z.boolean().default(true),
};

/** A plan limit (users, connections, queues) of 0 means no limit: the one reading of 0 for every screen. */
export function isUnlimited(limit: number): boolean {
  return limit === 0;
}

/**
 * Public sign-up offers only plans with a value: a company on a plan of R$ 0,00 gets no invoice, so
 * when its trial ends it could never pay and would stay locked out. Free plans are for companies the
 * super administrator creates by hand. The sign-up form lists by this rule, the server refuses by it.
 */
export function offeredAtSignup(plan: { value: number }): boolean {
  return plan.value > 0;
}

/** Plan defaults (2-administration §9): limits 0 mean "no limit"; all feature flags on. */
export const planInput = z.object({
  name: requiredString(1, 100),
  users: z.coerce.number({ error: MSG.required }).int().min(0).max(1_000_000).default(0),
  connections: z.coerce.number({ error: MSG.required }).int().min(0).max(1_000_000).default(0),
  queues: z.coerce.number({ error: MSG.required }).int().min(0).max(1_000_000).default(0),
  value: z.coerce.number({ error: MSG.required }).min(0).max(1_000_000_000).default(0),
  ...planFlagsShape,
});
export type PlanInput = z.infer<typeof planInput>;

export const plan = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  value: z.number(),
  useCampaigns: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
});
export type Plan = z.infer<typeof plan>;

/** PUT /plans/{id}: absent fields keep their value. */
export const planUpdateInput = z.object({
  name: requiredString(1, 100).optional(),
  users: z.coerce.number().int().min(0).max(1_000_000).optional(),
  connections: z.coerce.number().int().min(0).max(1_000_000).optional(),
  queues: z.coerce.number().int().min(0).max(1_000_000).optional(),
  value: z.coerce.number().min(0).max(1_000_000_000).optional(),
  useCampaigns: z.boolean().optional(),
  useSchedules: z.boolean().optional(),
  useInternalChat: z.boolean().optional(),
  useExternalApi: z.boolean().optional(),
  useKanban: z.boolean().optional(),
  useOpenAi: z.boolean().optional(),
  useIntegrations: z.boolean().optional(),
});
export type PlanUpdateInput = z.infer<typeof planUpdateInput>;

/** GET /plans/list (public, used by sign-up): only what a visitor may see. */
export const publicPlan = plan.pick({ id: true, name: true, users: true, connections: true, queues: true, value: true });
export type PublicPlan = z.infer<typeof publicPlan>;
