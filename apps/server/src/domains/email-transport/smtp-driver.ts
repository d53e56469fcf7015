import nodemailer, { type Transporter } from "nodemailer";
import { classifySmtpError } from "./classify.js";
import type { MailDriver, OutgoingMail, SendResult } from "./driver.js";

/**
 * nodemailer's pooled SMTP transport (`pool: true`): up to `maxConnections` connections kept open and
 * reused, so a campaign does not pay a TCP + TLS + EHLO handshake per message. The engine paces the
 * sends (EMAIL_RATE_PER_SECOND); the pool itself is not rate limited. `ready()` holds the next send
 * until fewer than `maxConnections` are in flight: a message handed over then takes a free connection
 * at once instead of waiting in the pool's queue and leaving in a burst with others (nodemailer's own
 * `isIdle()` only says the queue is shorter than the pool).
 */
export class SmtpDriver implements MailDriver {
  readonly name = "smtp" as const;
  private readonly transport: Transporter;
  private inflight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    url: string,
    private readonly maxConnections: number,
  ) {
    this.transport = nodemailer.createTransport({ url, pool: true, maxConnections, maxMessages: Infinity } as never);
  }

  ready(): Promise<void> {
    if (this.inflight < this.maxConnections) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    this.inflight++;
    try {
      return await this.deliver(mail);
    } finally {
      this.inflight--;
      this.waiting.shift()?.();
    }
  }

  private async deliver(mail: OutgoingMail): Promise<SendResult> {
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
    // a sender still waiting for a connection goes on (its send then fails as the pool is closed)
    for (const wake of this.waiting.splice(0)) wake();
    this.transport.close();
  }
}
