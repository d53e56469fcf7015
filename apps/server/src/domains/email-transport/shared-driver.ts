import type { AppContext } from "../../core/context.js";
import type { MailDriver } from "./driver.js";
import { emailOptions, type EmailOptions } from "./options.js";
import { selectMailDriver } from "./select-driver.js";

const drivers = new WeakMap<AppContext, { driver: MailDriver; options: EmailOptions }>();

/**
 * The app's one mail driver and options (the pooled SMTP connections are shared by the campaign engine
 * and the sender verification). Tests set their own with `useMailDriver` before the routes run.
 */
export function mailDriverOf(ctx: AppContext): { driver: MailDriver; options: EmailOptions } {
  let d = drivers.get(ctx);
  if (!d) {
    const options = emailOptions(ctx.config);
    d = { driver: selectMailDriver(ctx.sql, options), options };
    drivers.set(ctx, d);
  }
  return d;
}

export function useMailDriver(ctx: AppContext, driver: MailDriver, options: EmailOptions): void {
  drivers.set(ctx, { driver, options });
}
