import { z } from "zod";
import { PROFILES } from "../enums.js";
import { emailField, MSG, requiredString } from "./common.js";

const password = z.string().min(5, MSG.tooShort).max(50, MSG.tooLong);

export const userCreateInput = z.object({
  name: requiredString(2, 50),
  email: emailField,
  password: password,
  profile: z.enum(PROFILES, { error: MSG.required }).default("user"),
  queueIds: z.array(z.number().int().positive()).max(500).default([]),
  whatsappId: z.number().int().positive().nullable().optional(),
  allTicket: z.enum(["enable", "disable"]).default("disable"),
  /** Super administrators may create a user in another company. */
  companyId: z.number().int().positive().optional(),
});
export type UserCreateInput = z.infer<typeof userCreateInput>;

export const userUpdateInput = z.object({
  name: requiredString(2, 50).optional(),
  email: emailField.optional(),
  password: password.or(z.literal("")).optional(),
  profile: z.enum(PROFILES).optional(),
  queueIds: z.array(z.number().int().positive()).max(500).optional(),
  whatsappId: z.number().int().positive().nullable().optional(),
  allTicket: z.enum(["enable", "disable"]).optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateInput>;

export const queueRef = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const user = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  companyId: z.number(),
  allTicket: z.enum(["enable", "disable"]),
  whatsappId: z.number().nullable(),
  online: z.boolean(),
  queues: z.array(queueRef),
  createdAt: z.string(),
});
export type User = z.infer<typeof user>;

export const usersQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  /** JSON array of queue ids, as the web sends it. */
  queueIds: z.string().max(2000).optional(),
});

export const bulkDeleteInput = z.object({ ids: z.array(z.number().int().positive()).min(1).max(1000) });
