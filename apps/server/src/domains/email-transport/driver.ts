/**
 * The mail driver behind e-mail campaigns and sender verification (docs/architecture.md "E-mail
 * campaigns"): one message in, one classified answer out. The real client is nodemailer's pooled SMTP
 * transport (smtp-driver.ts); without SMTP the sandbox mailbox stores the message (sandbox-driver.ts).
 */
export interface OutgoingMail {
  /** The company whose mailbox shows it in the sandbox; null = the platform's own mail. */
  companyId: number | null;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post, ...). */
  headers?: Record<string, string>;
  /** A deterministic Message-ID (`<...@domain>`), so a receiver can tell a duplicate delivery. */
  messageId?: string;
  /** The SMTP envelope sender (MAIL FROM), e.g. a VERP bounce address; the From header otherwise. */
  envelopeFrom?: string;
}

export type SendResult =
  /** The server accepted it (250 after DATA): `response` is its reply line. */
  | { kind: "accepted"; response: string; messageId: string }
  /** Refused for good (5xx): counted not delivered, never retried. */
  | { kind: "rejected"; code: number | null; message: string }
  /** Refused for now (4xx) or the connection failed before the server accepted: retried with backoff. */
  | { kind: "retry"; code: number | null; message: string };

export interface MailDriver {
  readonly name: "smtp" | "sandbox";
  send(mail: OutgoingMail): Promise<SendResult>;
  /**
   * Resolves once a send would start on the wire at once (a pooled connection is free). The campaign
   * engine waits for it before each paced send, so its pacing clock is the relay's clock. Absent: always.
   */
  connectionFree?(): Promise<void>;
  close(): Promise<void>;
}
