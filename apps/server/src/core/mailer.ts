import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../config.js";
import type { Sql } from "../db/sql.js";
import { companyOrPlatform } from "../db/platform-company.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Whose sandbox mailbox shows it in development (no SMTP_URL); unset = the platform's (super admins). */
  companyId?: number | null;
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
 * read a reset code) and, when the caller passes the database, into the sandbox mailbox (/email-sandbox,
 * email_sandbox_messages); in production only a warning that nothing was sent, never the content.
 */
class LogMailer implements Mailer {
  constructor(
    private readonly log: MailLogger,
    private readonly showContent: boolean,
    private readonly from: string,
    private readonly sql: Sql | undefined,
  ) {}

  async send(message: MailMessage): Promise<void> {
    if (this.showContent) {
      this.log.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, `e-mail not sent (SMTP_URL not set): ${message.subject}\n${message.text}`);
      if (this.sql) {
        await this.sql.exec(
          // without a company: the platform's mail
          `INSERT INTO email_sandbox_messages (company_id, from_address, to_address, subject, html, text)
           VALUES (${companyOrPlatform("$1")}, $2, $3, $4, $5, $6)`,
          [message.companyId ?? null, this.from, message.to, message.subject, message.html ?? "", message.text],
        );
      }
    } else {
      this.log.warn({ mail: { to: message.to, subject: message.subject } }, "e-mail not sent: SMTP_URL is not configured");
    }
  }
}

const smtpMailers = new Map<string, Mailer>();

/** `sql`: where the development fallback keeps a copy for the sandbox mailbox (optional; only without SMTP_URL). */
export function createMailer(config: Pick<Config, "smtpUrl" | "mailFrom" | "env">, log: MailLogger, sql?: Sql): Mailer {
  if (!config.smtpUrl) return new LogMailer(log, config.env !== "production", config.mailFrom, sql);
  const key = `${config.smtpUrl}\n${config.mailFrom}`;
  let mailer = smtpMailers.get(key);
  if (!mailer) {
    mailer = new SmtpMailer(config.smtpUrl, config.mailFrom);
    smtpMailers.set(key, mailer);
  }
  return mailer;
}
