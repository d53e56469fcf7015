import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../config.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

interface MailLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** SMTP through nodemailer (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://host:465). */
class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  }
}

/**
 * Without SMTP_URL: in development and tests the whole message goes to the server log (so a developer can
 * read a reset code); in production only a warning that nothing was sent, never the content.
 */
class LogMailer implements Mailer {
  constructor(
    private readonly log: MailLogger,
    private readonly showContent: boolean,
  ) {}

  async send(message: MailMessage): Promise<void> {
    if (this.showContent) {
      this.log.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, `e-mail not sent (SMTP_URL not set): ${message.subject}\n${message.text}`);
    } else {
      this.log.warn({ mail: { to: message.to, subject: message.subject } }, "e-mail not sent: SMTP_URL is not configured");
    }
  }
}

const smtpMailers = new Map<string, Mailer>();

export function createMailer(config: Pick<Config, "smtpUrl" | "mailFrom" | "env">, log: MailLogger): Mailer {
  if (!config.smtpUrl) return new LogMailer(log, config.env !== "production");
  const key = `${config.smtpUrl}\n${config.mailFrom}`;
  let mailer = smtpMailers.get(key);
  if (!mailer) {
    mailer = new SmtpMailer(config.smtpUrl, config.mailFrom);
    smtpMailers.set(key, mailer);
  }
  return mailer;
}
