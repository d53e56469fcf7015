import { z } from "zod";
import { MSG, requiredString } from "./common.js";

/** SMS and e-mail templates (spec 3 §2, §3, §5, §7): the SMS and e-mail services' template calls. */

/** Templates per page of `GET /sms/templates/` and `GET /email/templates/`. */
export const MESSAGE_TEMPLATE_PAGE_SIZE = 20;
/** The template lists' search waits this long after typing stops (spec 3 §9). */
export const TEMPLATE_SEARCH_DEBOUNCE_MS = 300;
/** E-mail template HTML is refused above this many bytes (UTF-8), with ERR_EMAIL_TEMPLATE_TOO_LARGE. */
export const EMAIL_TEMPLATE_MAX_BYTES = 512 * 1024;

/** The list filter of both template lists: `title` contains (case-insensitive), `page` from 1. */
export const messageTemplatesQuery = z.object({
  title: z.string().max(200).optional().describe("Part of the title, case-insensitive"),
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type MessageTemplatesQuery = z.input<typeof messageTemplatesQuery>;

/** POST /sms/templates/ and PUT /sms/templates/{id}/: title 2-256, content 2-1024 with {{variable}}s. */
export const smsTemplateInput = z.object({
  title: requiredString(2, 256).describe("The template's name, 2-256 characters"),
  content: requiredString(2, 1024).describe("The SMS text, 2-1024 characters, with {{variable}} placeholders"),
});
export type SmsTemplateInput = z.input<typeof smsTemplateInput>;

export const smsTemplate = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  modified_at: z.string().describe("ISO time of the last change"),
  type: z.literal("sms"),
});
export type SmsTemplate = z.infer<typeof smsTemplate>;

/** Content that is only white space counts as empty (spec 3 §5: 'content required', nothing saved). */
const emailContent = z
  .string({ error: MSG.required })
  .refine((html) => html.trim().length > 0, MSG.required)
  .describe("The HTML, stored as sent; only ever rendered in a sandboxed iframe or sent as e-mail");

/** POST /email/templates/ and PUT /email/templates/{id}/: title and subject 2-128, HTML content. */
export const emailTemplateInput = z.object({
  title: requiredString(2, 128).describe("The template's name, 2-128 characters"),
  subject: requiredString(2, 128).describe("The e-mail subject, 2-128 characters"),
  content: emailContent,
});
export type EmailTemplateInput = z.input<typeof emailTemplateInput>;

export const emailTemplate = z.object({
  id: z.number(),
  title: z.string(),
  subject: z.string(),
  content: z.string(),
  updated_at: z.string().describe("ISO time of the last change"),
  type: z.literal("email"),
});
export type EmailTemplate = z.infer<typeof emailTemplate>;

/** An e-mail template in the list: without its HTML (up to 512 KB each), read with GET /email/templates/{id}/. */
export const emailTemplateSummary = emailTemplate.omit({ content: true });
export type EmailTemplateSummary = z.infer<typeof emailTemplateSummary>;

/** The services' page shape: this page's `results`, the total `count`, and `next` (the next page number, null on the last). */
const templatePage = <T extends z.ZodType>(item: T) =>
  z.object({ results: z.array(item), count: z.number(), next: z.number().nullable().describe("The next page's number; null on the last page") });
export const smsTemplatePage = templatePage(smsTemplate);
export type SmsTemplatePage = z.infer<typeof smsTemplatePage>;
export const emailTemplatePage = templatePage(emailTemplateSummary);
export type EmailTemplatePage = z.infer<typeof emailTemplatePage>;
