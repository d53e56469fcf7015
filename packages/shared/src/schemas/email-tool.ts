import { z } from "zod";
import { MSG } from "./common.js";

/** The simple e-mail tool (spec 3 §2 'Simple e-mail tool', §3 'Sent e-mail', §7 'Other calls'). */

/** Sent e-mails per page of `GET /listar-emails-enviados` and of the list page. */
export const SENT_EMAIL_PAGE_SIZE = 5;
/** The list shows the message cut at this many characters until the e-mail is opened. */
export const SENT_EMAIL_PREVIEW_CHARS = 100;
/** Recipients one send of the form may carry (the page posts once per recipient). */
export const EMAIL_TOOL_MAX_RECIPIENTS = 100;
/** E-mails a company may send through the tool in any sliding hour. */
export const EMAIL_TOOL_HOURLY_LIMIT = 200;
export const EMAIL_TOOL_SUBJECT_MAX = 200;
export const EMAIL_TOOL_MESSAGE_MAX = 20_000;

const address = z.string().trim().email(MSG.invalidEmail).max(254, MSG.tooLong);

/** The comma-separated recipients of the form, each trimmed; blanks between commas are ignored. */
export function splitRecipients(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The recipients that are not valid e-mail addresses, in the order typed. */
export function invalidRecipients(recipients: readonly string[]): string[] {
  return recipients.filter((r) => !address.safeParse(r).success);
}

/** POST /enviar-email, once per recipient. `tokenSenha` is sent by the spec's front end: accepted and ignored. */
export const sendEmailInput = z.object({
  email: z.string({ error: MSG.required }).trim().min(1, MSG.required).email(MSG.invalidEmail).max(254, MSG.tooLong).describe("One recipient"),
  tokenSenha: z
    .string()
    .max(2000)
    .optional()
    .transform(() => undefined)
    .describe("Ignored: dropped here, so it can never be stored or logged (the spec's front end sends it)"),
  assunto: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(EMAIL_TOOL_SUBJECT_MAX, MSG.tooLong).describe("Subject"),
  mensagem: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(EMAIL_TOOL_MESSAGE_MAX, MSG.tooLong).describe("Plain-text message"),
});
export type SendEmailInput = z.input<typeof sendEmailInput>;

export const sentEmailStatus = z.enum(["queued", "sending", "sent", "failed"]);
export type SentEmailStatus = z.infer<typeof sentEmailStatus>;

/** A sent e-mail; `sender` holds the recipient, as the spec's field does. */
export const sentEmail = z.object({
  id: z.number(),
  sender: z.string().describe("The recipient's address (the spec's name for it)"),
  subject: z.string(),
  message: z.string(),
  status: sentEmailStatus,
  error: z.string().nullable(),
  userName: z.string().nullable(),
  created_at: z.string(),
});
export type SentEmail = z.infer<typeof sentEmail>;

export const sentEmailsQuery = z.object({ page: z.coerce.number().int().min(1).max(100000).optional().default(1) });
export const sentEmailsPage = z.object({ results: z.array(sentEmail), count: z.number(), next: z.number().nullable() });
export type SentEmailsPage = z.infer<typeof sentEmailsPage>;
