import type { Sql } from "../../db/sql.js";
import type { MailDriver } from "./driver.js";
import type { EmailOptions } from "./options.js";
import { SandboxDriver } from "./sandbox-driver.js";
import { SmtpDriver } from "./smtp-driver.js";

/** The pooled SMTP driver when a relay is configured, else the sandbox mailbox. */
export function selectMailDriver(sql: Sql, o: Pick<EmailOptions, "smtpUrl" | "maxConnections">): MailDriver {
  return o.smtpUrl ? new SmtpDriver(o.smtpUrl, o.maxConnections) : new SandboxDriver(sql);
}
