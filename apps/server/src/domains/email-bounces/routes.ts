import type { AppContext } from "../../core/context.js";
import type { Domain } from "../../core/domain.js";
import { runsBackground } from "../../core/roles.js";
import { mailDriverOf } from "../email-transport/shared-driver.js";
import { BounceListener } from "./listener.js";

const listeners = new WeakMap<AppContext, BounceListener>();

/** The app's bounce listener, when BOUNCE_SMTP_PORT started one (tests read its port). */
export const bounceListenerOf = (ctx: AppContext): BounceListener | null => listeners.get(ctx) ?? null;

/**
 * Asynchronous bounces of e-mail campaigns: with BOUNCE_SMTP_PORT set, a process that runs background
 * work (ROLE worker or all, `runsBackground`: never a web process, nor one with RUN_JOBS=false) listens
 * for the reports that receiving servers send to the VERP return paths (`bounces+<token>@BOUNCE_DOMAIN`;
 * point that domain's MX at this port on the workers). No HTTP route. Off by default.
 */
export const emailBouncesDomain: Domain = (api, ctx) => {
  const { options } = mailDriverOf(ctx);
  if (!options.bounceSmtpPort || !runsBackground(ctx.config)) return;
  const listener = new BounceListener(ctx, { port: options.bounceSmtpPort, host: options.bounceSmtpHost ?? ctx.config.host, domain: options.bounceDomain });
  listeners.set(ctx, listener);
  api.addHook("onReady", async () => listener.start());
  api.addHook("onClose", async () => {
    await listener.stop();
    listeners.delete(ctx);
  });
};
