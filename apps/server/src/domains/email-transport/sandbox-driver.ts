import { randomBytes } from "node:crypto";
import type { Sql } from "../../db/sql.js";
import type { MailDriver, OutgoingMail, SendResult } from "./driver.js";
import { companyOrPlatform } from "../../db/platform-company.js";

/**
 * The sandbox mailbox: nothing leaves the server; the message is stored (email_sandbox_messages) and
 * shown on /email-sandbox to the company's admins and supervisors (company null: super admins), its
 * HTML in a sandboxed iframe, so its pixel and links exercise the real tracking routes.
 */
export class SandboxDriver implements MailDriver {
  readonly name = "sandbox" as const;
  constructor(private readonly sql: Sql) {}

  async send(mail: OutgoingMail): Promise<SendResult> {
    const messageId = mail.messageId ?? `<${randomBytes(12).toString("hex")}@sandbox.atende>`;
    const row = await this.sql.one<{ id: string }>(
      `INSERT INTO email_sandbox_messages (company_id, from_address, to_address, subject, html, text, headers, message_id)
       VALUES (${companyOrPlatform("$1")}, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text`,
      [mail.companyId, mail.from, mail.to, mail.subject, mail.html, mail.text, JSON.stringify(mail.headers ?? {}), messageId],
    );
    return { kind: "accepted", response: `250 stored in the sandbox mailbox (#${row.id})`, messageId };
  }

  async close(): Promise<void> {}
}
