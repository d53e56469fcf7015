import { z } from "zod";
import { MSG } from "./common.js";

const required = (max: number) => z.string({ error: MSG.required }).trim().min(1, { error: MSG.required, abort: true }).max(max, MSG.tooLong);

/**
 * A WhatsApp Business Account (WABA) of the official Cloud API: its id at Meta and the secrets the
 * server needs (Graph access token, app secret for webhook signatures, the webhook verify token).
 */
export const businessInput = z.object({
  name: required(50).pipe(z.string().min(2, MSG.tooShort)),
  wabaId: z
    .string({ error: MSG.required })
    .trim()
    .min(1, { error: MSG.required, abort: true })
    .regex(/^\d{1,30}$/, "Somente dígitos")
    .describe("The WhatsApp Business Account id at Meta"),
  accessToken: required(2000).describe("Graph API access token (system user); never returned"),
  appSecret: required(200).describe("App secret, signs the webhooks (X-Hub-Signature-256); never returned"),
  verifyToken: required(200).pipe(z.string().min(8, MSG.tooShort)).describe("Webhook verify token (hub.verify_token); never returned"),
});
export type BusinessInput = z.input<typeof businessInput>;

/** PUT /businesses/{id}: every field optional; an omitted or empty secret keeps the stored one. */
export const businessUpdateInput = z.object({
  name: businessInput.shape.name.optional(),
  wabaId: businessInput.shape.wabaId.optional(),
  accessToken: z.string().trim().max(2000, MSG.tooLong).optional(),
  appSecret: z.string().trim().max(200, MSG.tooLong).optional(),
  verifyToken: z
    .string()
    .trim()
    .max(200, MSG.tooLong)
    .refine((s) => s === "" || s.length >= 8, MSG.tooShort)
    .optional(),
});
export type BusinessUpdateInput = z.input<typeof businessUpdateInput>;

export const business = z.object({
  id: z.number(),
  name: z.string(),
  wabaId: z.string(),
  hasAccessToken: z.boolean(),
  hasAppSecret: z.boolean(),
  hasVerifyToken: z.boolean(),
  /** The callback path to register at Meta (under the server's public address). */
  webhookPath: z.string(),
  webhookUrl: z.string(),
  accountStatus: z.string(),
  phoneNumbersCount: z.number(),
  templatesCount: z.number(),
  lastSyncAt: z.string().nullable(),
  /** The built-in test business (no Meta account: never synced; POST /businesses/sandbox). */
  sandbox: z.boolean(),
  /** The sandbox business's simulated share of failed sends (0-1); null for real businesses. */
  sandboxFailureRate: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Business = z.infer<typeof business>;

/** POST /businesses/{id}/sync: what the Graph API returned and what changed here. */
export const businessSyncResult = z.object({
  phoneNumbers: z.object({
    total: z.number(),
    created: z.number(),
    updated: z.number(),
    /** New numbers left out because the plan's connection limit was reached. */
    skipped: z.number(),
    /** Numbers no longer on the account (marked DELETED / DISABLED). */
    removed: z.number(),
  }),
  templates: z.object({ total: z.number(), created: z.number(), updated: z.number(), removed: z.number() }),
  business,
});
export type BusinessSyncResult = z.infer<typeof businessSyncResult>;
