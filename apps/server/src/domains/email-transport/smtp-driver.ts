import nodemailer, { type Transporter } from "nodemailer";
import { classifySmtpError } from "./classify.js";
import type { MailDriver, OutgoingMail, SendResult } from "./driver.js";

/**
 * nodemailer's pooled SMTP transport (`pool: true`): up to `maxConnections` connections kept open and
 * reused, so a campaign does not pay a TCP + TLS + EHLO handshake per message. The engine paces the
 * sends (EMAIL_RATE_PER_SECOND); the pool itself is not rate limited.
 */
export class SmtpDriver implements MailDriver {
  readonly name = "smtp" as const;
  private readonly transport: Transporter;

  constructor(url: string, maxConnections: number) {
    this.transport = nodemailer.createTransport({ url, pool: true, maxConnections, maxMessages: Infinity } as never);
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    try {
      const info = await this.transport.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        messageId: mail.messageId,
        envelope: mail.envelopeFrom ? { from: mail.envelopeFrom, to: mail.to } : undefined,
      });
      const rejected = (info.rejected as unknown[] | undefined)?.length ?? 0;
      if (rejected > 0) {
        const errors = (info as { rejectedErrors?: unknown[] }).rejectedErrors;
        return classifySmtpError(errors?.[0] ?? new Error(String(info.response)));
      }
      return { kind: "accepted", response: String(info.response ?? ""), messageId: String(info.messageId ?? mail.messageId ?? "") };
    } catch (err) {
      return classifySmtpError(err);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
