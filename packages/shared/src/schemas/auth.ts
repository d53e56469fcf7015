import { z } from "zod";
import { PROFILES } from "../enums.js";
import { MSG } from "./common.js";
import { planFlagsShape } from "./plans.js";
import { setting } from "./settings.js";

export const loginInput = z.object({
  email: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(254),
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(200),
});
export type LoginInput = z.infer<typeof loginInput>;

const planFlags = z.object(Object.fromEntries(Object.keys(planFlagsShape).map((k) => [k, z.boolean()])) as {
  [K in keyof typeof planFlagsShape]: z.ZodBoolean;
});

export const sessionUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  companyId: z.number(),
  allTicket: z.enum(["enable", "disable"]),
  whatsappId: z.number().nullable(),
  queues: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  company: z.object({
    id: z.number(),
    name: z.string(),
    dueDate: z.string().nullable(),
    biUrl: z.string(),
    /** IANA time zone the company works in (see companies' timeZone). */
    timeZone: z.string(),
    settings: z.array(setting),
    plan: planFlags.extend({ name: z.string() }),
  }),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const sessionResponse = z.object({
  token: z.string(),
  user: sessionUser,
  /** Days left before the due date when fewer than 5 remain. */
  warningDays: z.number().optional(),
});
export type SessionResponse = z.infer<typeof sessionResponse>;
