import { z } from "zod";
import { PROFILES } from "../enums.js";
import { emailField, MSG, requiredString } from "./common.js";

/** An empty password is "Required" first (forms and the API show the first failing rule), not "Too Short!". */
const password = z.string({ error: MSG.required }).min(1, MSG.required).min(5, MSG.tooShort).max(50, MSG.tooLong);
const queueIds = z.array(z.number().int().positive()).max(500);

export const userCreateInput = z.object({
  name: requiredString(2, 50),
  email: emailField,
  password: password,
  profile: z.enum(PROFILES, { error: MSG.required }).default("user"),
  queueIds: queueIds.default([]),
  whatsappId: z.number().int().positive().nullable().optional().describe("Default connection"),
  allTicket: z.enum(["enable", "disable"]).default("disable"),
  /** Super administrators may create a user in another company; ignored for everyone else. */
  companyId: z.number().int().positive().optional(),
});
export type UserCreateInput = z.infer<typeof userCreateInput>;

/** Every field optional: absent means unchanged; an empty password keeps the current one. */
export const userUpdateInput = z.object({
  name: requiredString(2, 50).optional(),
  email: emailField.optional(),
  password: password.or(z.literal("")).optional(),
  currentPassword: z.string().max(200).optional().describe("Required when users change their own password: the password they have now"),
  profile: z.enum(PROFILES).optional(),
  queueIds: queueIds.optional(),
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
  online: z.boolean().describe("The app open now: isOnline (presence.ts), the dashboard's rule"),
  queues: z.array(queueRef),
  createdAt: z.string(),
});
export type User = z.infer<typeof user>;

export const usersQuery = z.object({
  searchParam: z.string().max(200).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  /** JSON array of queue ids, as the web sends it: `[1,2]`. */
  queueIds: z.string().max(2000).optional(),
});

/** GET /users: 20 per page, ordered by name. */
export const usersPage = z.object({ users: z.array(user), hasMore: z.boolean(), count: z.number() });
export type UsersPage = z.infer<typeof usersPage>;

/** GET /users/list: the company's users for selects (super administrators may pass companyId). */
export const usersListQuery = z.object({ companyId: z.coerce.number().int().positive().optional() });
export const userListItem = z.object({ id: z.number(), name: z.string() });
export type UserListItem = z.infer<typeof userListItem>;

/** POST /users/bulk-delete (super only). */
export const bulkDeleteInput = z.object({ ids: z.array(z.number().int().positive()).min(1).max(1000) });
export const bulkDeleteResponse = z.object({ deleted: z.array(z.number()) });

/** The `company-{id}-user` event payloads. */
export type UserEvent = { action: "create" | "update"; user: User } | { action: "delete"; userId: number };
