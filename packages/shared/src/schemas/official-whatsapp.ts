import { z } from "zod";

/** Operating status of an official number (1-core §3): Meta's phone number `status`. */
export const OPERATING_STATUSES = [
  "CONNECTED",
  "PENDING",
  "DELETED",
  "MIGRATED",
  "BANNED",
  "RESTRICTED",
  "RATE_LIMITED",
  "FLAGGED",
  "DISCONNECTED",
  "UNKNOWN",
  "UNVERIFIED",
] as const;
export type OperatingStatus = (typeof OPERATING_STATUSES)[number];

export const PHONE_STATUSES = ["ACTIVE", "DISABLED"] as const;
export type PhoneStatus = (typeof PHONE_STATUSES)[number];

/** Meta's quality rating; UNKNOWN until rated. */
export const QUALITY_SCORES = ["GREEN", "YELLOW", "RED", "UNKNOWN"] as const;
export type QualityScore = (typeof QUALITY_SCORES)[number];

const bool = z.enum(["true", "false"]).transform((v) => v === "true");

/** GET /officialWhatsapp/: every filter optional; `active` omitted = all. */
export const officialWhatsappQuery = z.object({
  phoneNumber: z.string().trim().max(50).optional(),
  businessId: z.coerce.number().int().positive().optional(),
  phoneStatus: z.enum(PHONE_STATUSES).optional(),
  active: bool.optional(),
});
export type OfficialWhatsappQuery = z.input<typeof officialWhatsappQuery>;

/** One official connection (phone number) as the official connections page shows it. */
export const officialWhatsapp = z.object({
  id: z.number(),
  whatsappId: z.number(),
  /** The connection's name and session status (the ticket screens' view of it). */
  name: z.string(),
  status: z.string(),
  phoneNumberId: z.string(),
  phoneNumber: z.string(),
  displayPhoneNumber: z.string(),
  verifiedName: z.string(),
  /** Messaging limit tier (TIER_250, TIER_1K, TIER_10K, TIER_100K, TIER_UNLIMITED). */
  messagingLimit: z.string(),
  phoneStatus: z.enum(PHONE_STATUSES),
  phoneStatusReason: z.string(),
  businessId: z.number(),
  businessName: z.string(),
  accountStatus: z.string(),
  accountViolation: z.boolean(),
  violationType: z.string(),
  operatingStatus: z.string(),
  qualityScore: z.string(),
  /** Meta's health_status.can_send_message (AVAILABLE, LIMITED, BLOCKED) and its errors. */
  canSendMessage: z.string(),
  healthErrors: z.array(z.object({ code: z.string(), description: z.string() })),
  active: z.boolean(),
  transferQueueId: z.number().nullable(),
  transferQueue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  /** Messages per second in campaigns (changed with PUT /phones/{id}). */
  throughputPerSecond: z.number(),
  updatedAt: z.string(),
});
export type OfficialWhatsapp = z.infer<typeof officialWhatsapp>;

/** PUT /officialWhatsapp/{id}. */
export const officialWhatsappUpdateInput = z
  .object({
    active: z.boolean().optional(),
    transferQueueId: z.number().int().positive().nullable().optional(),
  })
  .refine((v) => v.active !== undefined || v.transferQueueId !== undefined, "Nada para alterar");
export type OfficialWhatsappUpdateInput = z.input<typeof officialWhatsappUpdateInput>;

/** PUT /officialWhatsapp/bulk: the same change on several numbers at once. */
export const officialWhatsappBulkInput = z
  .object({
    ids: z.array(z.number().int().positive()).min(1).max(500),
    active: z.boolean().optional(),
    transferQueueId: z.number().int().positive().nullable().optional(),
  })
  .refine((v) => v.active !== undefined || v.transferQueueId !== undefined, "Nada para alterar");
export type OfficialWhatsappBulkInput = z.input<typeof officialWhatsappBulkInput>;

export const officialWhatsappBulkResult = z.object({ updated: z.number(), records: z.array(officialWhatsapp) });

/**
 * POST /officialWhatsapp/ticket/{ticketId}/template: sends an approved template on an official ticket.
 * Which values are needed follows the template (see fillTemplate); an unfilled one is refused with
 * ERR_TEMPLATE_VARIABLES_MISSING before Meta is called.
 */
export const officialTemplateSendInput = z.object({
  templateId: z.number().int().positive(),
  /** POSITIONAL templates: values of the body's {{1}}, {{2}}, ... in order. */
  variables: z.array(z.string().max(1024)).max(30).default([]),
  /** NAMED templates: header and body values by parameter name ({{first_name}}). */
  namedVariables: z.record(z.string().regex(/^[A-Za-z0-9_]+$/).max(100), z.string().max(1024)).default({}),
  /** POSITIONAL templates: the value of a text header's {{1}} (Meta allows one, 60 characters). */
  headerText: z.string().max(60).optional(),
  /** Header image/video/document link, for templates whose header is media. */
  headerMediaUrl: z.url().max(2000).optional(),
  /** A document header's file name as the customer sees it. */
  headerFilename: z.string().trim().max(240).optional(),
  /** By button index: URL suffix, copy-code coupon code (max 15 characters per Meta) or quick-reply payload. */
  buttons: z
    .array(z.object({ index: z.number().int().min(0).max(9), value: z.string().max(2000) }))
    .max(10)
    .default([]),
});
export type OfficialTemplateSendInput = z.input<typeof officialTemplateSendInput>;

/** A message template of a business (synced from Meta). */
export const whatsappTemplate = z.object({
  id: z.number(),
  businessId: z.number(),
  templateId: z.string(),
  name: z.string(),
  language: z.string(),
  category: z.string(),
  status: z.string(),
  headerFormat: z.string(),
  /** NAMED ({{first_name}}) or POSITIONAL ({{1}}). */
  parameterFormat: z.enum(["NAMED", "POSITIONAL"]),
  body: z.string(),
  /** Meta's components (HEADER, BODY, FOOTER, BUTTONS) for filling and previewing the template. */
  components: z.array(
    z.object({
      type: z.string(),
      format: z.string().optional(),
      text: z.string().optional(),
      buttons: z.array(z.object({ type: z.string(), text: z.string().optional(), url: z.string().optional(), phone_number: z.string().optional() })).optional(),
    }),
  ),
  variableCount: z.number(),
  rejectedReason: z.string(),
  updatedAt: z.string(),
});
export type WhatsappTemplate = z.infer<typeof whatsappTemplate>;
