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

/** Plan defaults (2-administration §9): limits 0 mean "no limit"; all feature flags on. */
export const planInput = z.object({
  name: requiredString(1, 100),
  users: z.coerce.number({ error: MSG.required }).int().min(0).default(0),
  connections: z.coerce.number({ error: MSG.required }).int().min(0).default(0),
  queues: z.coerce.number({ error: MSG.required }).int().min(0).default(0),
  value: z.coerce.number({ error: MSG.required }).min(0).default(0),
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
