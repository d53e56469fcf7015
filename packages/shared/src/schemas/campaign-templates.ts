import { z } from "zod";

/** WhatsApp templates, template types and numbers for campaigns (spec 3 §2, §3, §7). */

const boolString = z.enum(["true", "false"]);
/** Query ids: empty means "not given" (the campaign screens send `BusinessId=` when nothing is chosen). */
const optionalId = z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional());
const optionalBool = z.preprocess((v) => (v === "" ? undefined : v), boolString.optional());

export const templateType = z.object({ id: z.number(), name: z.string() });
export type TemplateType = z.infer<typeof templateType>;

/** GET /templates: every filter is optional; `id` gives that one template (still an array). */
export const campaignTemplatesQuery = z.object({
  id: optionalId,
  BusinessId: optionalId.describe("Only this business's templates"),
  active: optionalBool.describe("true: approved by Meta and not deleted"),
  isValid: optionalBool.describe("The computed campaign validation"),
  name: z.string().max(200).optional().describe("Part of the name, case-insensitive"),
  TemplateTypeId: optionalId.describe("A type of GET /template-types"),
});
export type CampaignTemplatesQuery = z.input<typeof campaignTemplatesQuery>;

/** A template as the campaign screens use it. */
export const campaignTemplate = z.object({
  id: z.number(),
  name: z.string(),
  category: z.string(),
  status: z.string(),
  /** The TemplateType's name (the header's format). */
  type: z.string(),
  /** The BODY component's text. */
  body: z.string(),
  /** Header and body variables a recipient row fills (the media URL is not counted). */
  variableCount: z.number(),
  /** The CSV columns after telefone;cpf;email: media URL (if any) + variables. */
  csvColumns: z.number(),
  language: z.string(),
  PhoneNumbers: z.array(z.object({ id: z.number(), displayNumber: z.string() })),
  validation: z.object({ valid: z.boolean(), message: z.string() }),
  Business: z.object({ id: z.number(), name: z.string() }),
  TemplateType: templateType,
});
export type CampaignTemplate = z.infer<typeof campaignTemplate>;

/** GET /phones: `output=true` adds the portfolio's remaining 24-hour output. */
export const campaignPhonesQuery = z.object({
  BusinessId: optionalId,
  output: optionalBool,
});
export type CampaignPhonesQuery = z.input<typeof campaignPhonesQuery>;

export const campaignPhone = z.object({
  id: z.number(),
  businessId: z.number(),
  displayNumber: z.string(),
  verifiedName: z.string(),
  messagingLimit: z.string(),
  /** Unique users the portfolio may still reach in the moving 24 hours; null = unlimited. Only with output=true. */
  remainingOutput: z.number().nullable().optional(),
  throughputPerSecond: z.number(),
});
export type CampaignPhone = z.infer<typeof campaignPhone>;

/** PUT /phones/{id}: messages per second in campaigns (Meta: 80 by default, up to 1,000). */
export const THROUGHPUT_MIN = 1;
export const THROUGHPUT_MAX = 1000;
export const phoneThroughputInput = z.object({
  throughputPerSecond: z
    .number({ error: "Required" })
    .int("Somente números inteiros")
    .min(THROUGHPUT_MIN, `Mínimo ${THROUGHPUT_MIN}`)
    .max(THROUGHPUT_MAX, `Máximo ${THROUGHPUT_MAX}`),
});
export type PhoneThroughputInput = z.input<typeof phoneThroughputInput>;

/** POST /businesses/sandbox: the built-in test business (created once per company). */
export const sandboxBusinessResult = z.object({
  id: z.number(),
  name: z.string(),
  created: z.boolean(),
  numbers: z.number(),
  templates: z.number(),
});
export type SandboxBusinessResult = z.infer<typeof sandboxBusinessResult>;
