/**
 * The SMS provider seen by the campaigns (docs/architecture.md "SMS campaigns: the provider"): send
 * one message carrying our row id, get the provider's id or a classified error. Delivery receipts and
 * inbound messages come back through the provider's webhooks (Twilio) or the sandbox's own sweep, and
 * both reach `applySmsReceipts` / `handleInboundSms` of domains/sms-campaigns.
 */
export interface SmsSendRequest {
  companyId: number;
  /** Our recipient row id: it rides in the StatusCallback URL, so a lost answer is reconciled from its receipt. */
  rowId: string;
  /** E.164 digits without '+'. */
  to: string;
  body: string;
  segments: number;
}

export type SmsSendOutcome =
  /** Accepted: the provider's message id. */
  | { kind: "sent"; providerId: string }
  /** Refused for now (rate limit, provider trouble): the row waits and is tried again. */
  | { kind: "retry"; code: number | null; message: string; rateLimited: boolean }
  /** Refused for this recipient: never tried again; `permanent` says the number itself is bad. */
  | { kind: "failed"; code: number | null; message: string; permanent: boolean }
  /** Refused for the whole account (credentials, sender): the campaign pauses with the message. */
  | { kind: "account"; code: number | null; message: string }
  /** The request may or may not have reached the provider: the row waits for a receipt (never re-sent). */
  | { kind: "unknown"; message: string };

export interface SmsDriver {
  readonly name: "twilio" | "sandbox";
  send(request: SmsSendRequest): Promise<SmsSendOutcome>;
}

/** A delivery receipt, from Twilio's status callback or the sandbox. */
export interface SmsReceipt {
  providerId: string;
  /** The row id our StatusCallback URL carried. */
  rowId?: string;
  /** queued, sending, sent, delivered, undelivered, failed (Twilio's MessageStatus). */
  status: string;
  errorCode?: number | null;
}
