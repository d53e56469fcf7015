/**
 * The error catalogue (spec 1-core §8) plus the few codes the API needs beyond it
 * (marked "extension"). Every error the server sends is `{ error: CODE, message }`.
 */
export const ERROR_STATUS = {
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 409,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 502,
  ERR_SENDING_WAPP_MSG: 502,
  ERR_DELETE_WAPP_MSG: 502,
  ERR_OTHER_TICKET_WHATSAPP: 409,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_NO_PERMISSION: 403,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  ERR_NO_USER_DELETE: 403,
  ERR_CANNOT_EDIT_SUPER_USER: 403,
  ERR_CANNOT_DELETE_SUPER_COMPANY: 403,
  ERR_CANNOT_UPDATE_SUPER_COMPANY_DUE_DATE: 403,
  ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_USER: 403,
  ERR_CANNOT_CHANGE_SUPER_ADMIN_PROFILE_TO_SUPERVISOR: 403,
  ERR_CANNOT_EDIT_SUPER_USER_PROFILE: 403,
  ERR_CANNOT_EDIT_USER_CANNOT_EDIT_ADMIN: 403,
  ERR_CANNOT_EDIT_OR_DELETE_OWN_ADMIN_ACCOUNT: 403,
  ERR_CANNOT_EDIT_OR_DEMOTE_OWN_ACCOUNT: 403,
  ERR_INVALID_DOCUMENT: 400,
  ERR_WAPP_INVALID_CONTACT_FROM_FILE: 400,
  ERR_CONTACT_IS_WHATSAPP: 400,
  ERR_WPP_OFFICIAL_SESSION_EXPIRED: 400,
  /** extension: a WhatsApp template send left a header, body or button variable unfilled (refused before calling Meta) */
  ERR_TEMPLATE_VARIABLES_MISSING: 400,
  ERR_TICKET_USER_MISMATCH: 409,
  /** extension: a ticket transition lost a race (or its view was stale); the body carries the current ticket */
  ERR_TICKET_ALREADY_CHANGED: 409,
  ERR_REQUIRE_TAG_BEFORE_CLOSING: 400,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  // extensions
  ERR_VALIDATION: 400,
  ERR_NOT_FOUND: 404,
  ERR_SUBSCRIPTION_EXPIRED: 401,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_PLAN_LIMIT_REACHED: 403,
  ERR_TOO_MANY_REQUESTS: 429,
  // a company's or a session's request limit (RATE_LIMIT_*): `{ scope, limit, retryAfter }` and Retry-After
  ERR_RATE_LIMITED: 429,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_INTERNAL: 500,
  ERR_INVALID_RESET_CODE: 400,
  ERR_SCHEDULE_ALREADY_SENT: 409,
  // Meta's Cloud API limits, checked before sending (channels/cloud-api/limits.ts)
  ERR_WAPP_TEXT_TOO_LONG: 400,
  ERR_WAPP_CAPTION_TOO_LONG: 400,
  ERR_WAPP_MEDIA_TYPE_UNSUPPORTED: 400,
  ERR_WAPP_MEDIA_TOO_LARGE: 413,
  ERR_SANDBOX_DISABLED: 403,
  /** extension: the server process that runs the connection did not answer a forwarded action in time (docs/architecture.md "Process roles and fencing") */
  ERR_WAPP_OWNER_UNREACHABLE: 503,
  ERR_COMPANY_INACTIVE: 401,
  ERR_INVALID_CURRENT_PASSWORD: 400,
  ERR_TOO_MANY_SOCKETS: 429,
  // keywords (the block list): a word already listed; content refused for containing listed words
  ERR_KEYWORD_DUPLICATE: 409,
  ERR_BLOCKED_WORDS: 400,
  // campaigns (domains/campaigns): spec 3 §5 creation rules, the CSV file, the list and its calendar
  ERR_CAMPAIGN_COST_CENTER_REQUIRED: 400,
  ERR_CAMPAIGN_TITLE_REQUIRED: 400,
  ERR_CAMPAIGN_FILE_REQUIRED: 400,
  ERR_CAMPAIGN_BUSINESS_REQUIRED: 400,
  ERR_CAMPAIGN_TEMPLATE_REQUIRED: 400,
  ERR_CAMPAIGN_QUEUE_REQUIRED: 400,
  ERR_CAMPAIGN_FILE_EXTENSION: 400,
  ERR_CAMPAIGN_FILE_TOO_LARGE: 413,
  ERR_CAMPAIGN_TEMPLATE_INVALID: 400,
  ERR_CAMPAIGN_NUMBER_INVALID: 400,
  ERR_CAMPAIGN_NOT_FOUND: 404,
  ERR_CAMPAIGN_NOT_SCHEDULABLE: 409,
  // Campaign templates, numbers and cost centers (domains/campaign-templates, domains/cost-centers);
  // ERR_FEATURE_DISABLED: a route gate's company setting is off (campaignsEnabled)
  ERR_FEATURE_DISABLED: 403,
  ERR_NO_COST_CENTER_FOUND: 404,
  ERR_NO_TEMPLATE_FOUND: 404,
  ERR_SANDBOX_BUSINESS_NO_SYNC: 409,
  // Campaign dispatch (domains/campaign-dispatch): start/pause refused in the campaign's status, a
  // campaign without a number to send through
  ERR_CAMPAIGN_NOT_STARTABLE: 409,
  ERR_CAMPAIGN_NOT_PAUSABLE: 409,
  ERR_CAMPAIGN_NO_NUMBERS: 409,
  // AI prompts (domains/prompts): a prompt not found in the company, a prompt saved without an API key
  ERR_PROMPT_NOT_FOUND: 404,
  ERR_PROMPT_API_KEY_REQUIRED: 400,
  // Queue integrations (domains/queue-integrations): bad service-account key, an integration in use by
  // a queue or connection, a provider test call that failed
  ERR_QUEUE_INTEGRATION_NOT_FOUND: 404,
  ERR_INTEGRATION_BAD_CREDENTIALS: 400,
  ERR_INTEGRATION_TEST_FAILED: 502,
  // SMS and e-mail templates (domains/message-templates): not found in the company, HTML over 512 KB
  ERR_SMS_TEMPLATE_NOT_FOUND: 404,
  ERR_EMAIL_TEMPLATE_NOT_FOUND: 404,
  ERR_EMAIL_TEMPLATE_TOO_LARGE: 413,
  // Simple e-mail tool (domains/email-tool): the company's hourly sending limit reached
  ERR_EMAIL_TOOL_RATE_LIMIT: 429,
  // Billing (domains/billing): an invoice not found in the company or already paid, the PSP not
  // configured or not answering, a sandbox PSP charge unknown or no longer payable
  ERR_INVOICE_NOT_FOUND: 404,
  ERR_INVOICE_ALREADY_PAID: 409,
  ERR_PIX_UNAVAILABLE: 503,
  ERR_PIX_CHARGE_NOT_FOUND: 404,
  ERR_PIX_CHARGE_NOT_PAYABLE: 409,
  // Billing: a pay link (signed link to one invoice's Pix page) forged, altered, expired or naming an
  // invoice of another company; a plan of no value chosen at sign-up (it could never be paid for)
  ERR_PAY_LINK_INVALID: 404,
  ERR_PLAN_NOT_OFFERED: 400,
  // SMS campaigns (domains/sms-campaigns): spec 3 §5 SMS rules, the file upload, the status machine,
  // the provider's webhooks
  ERR_SMS_TEMPLATE_REQUIRED: 400,
  ERR_SMS_HOURS_INVALID: 400,
  ERR_SMS_MATRIX_INVALID: 400,
  ERR_SMS_CAMPAIGN_NOT_FOUND: 404,
  ERR_SMS_CAMPAIGN_FILE_RECEIVED: 409,
  ERR_SMS_CAMPAIGN_STATUS: 409,
  ERR_SMS_SIGNATURE: 403,
  ERR_SMS_SANDBOX_OFF: 404,
  // E-mail campaigns and senders (domains/email-campaigns, domains/email-senders): spec 3 §5 sender and
  // template required, the file sent twice, a trigger, pause, resume or cancel refused in the campaign's status, a sender address
  // already listed, a verification link expired or forged
  ERR_EMAIL_SENDER_REQUIRED: 400,
  ERR_EMAIL_TEMPLATE_REQUIRED: 400,
  ERR_EMAIL_CAMPAIGN_FILE_ALREADY_SENT: 409,
  ERR_EMAIL_CAMPAIGN_NOT_TRIGGERABLE: 409,
  ERR_EMAIL_CAMPAIGN_NOT_PAUSABLE: 409,
  ERR_EMAIL_CAMPAIGN_NOT_RESUMABLE: 409,
  ERR_EMAIL_CAMPAIGN_NOT_CANCELLABLE: 409,
  ERR_EMAIL_SENDER_DUPLICATE: 409,
  ERR_EMAIL_LINK_INVALID: 400,
  // Opt-out list (domains/opt-outs): an address or number already listed, one listed nowhere in the company
  ERR_OPT_OUT_DUPLICATE: 409,
  ERR_OPT_OUT_NOT_FOUND: 404,
  // POST /upload (domains/uploads): a file whose first bytes are none of UPLOAD_MEDIA_TYPES (extension)
  ERR_UPLOAD_TYPE_UNSUPPORTED: 415,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ApiErrorBody {
  error: ErrorCode;
  message: string;
  /** Validation failures: field path → message. */
  fields?: Record<string, string>;
  [extra: string]: unknown;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && value in ERROR_STATUS;
}
