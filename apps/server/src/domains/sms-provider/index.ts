import type { AppContext } from "../../core/context.js";
import type { SmsDriver } from "./driver.js";
import { SandboxSmsProvider } from "./sandbox-provider.js";
import { TwilioClient } from "./twilio-client.js";

/** The configured provider (SMS_PROVIDER), or null when SMS sending is off. */
export function smsDriverFor(ctx: AppContext): SmsDriver | null {
  const sms = ctx.config.sms;
  if (sms.provider === "twilio") return new TwilioClient(sms.twilio, () => ctx.config.publicUrl);
  if (sms.provider === "sandbox") return new SandboxSmsProvider(ctx.sql, { failureRate: sms.sandboxFailureRate, receiptMs: sms.sandboxReceiptMs });
  return null;
}
