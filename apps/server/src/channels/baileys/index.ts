import type { Domain } from "../../core/domain.js";
import { channels, registerDriverFactory } from "../manager.js";
import { BaileysDriver, type BaileysDriverOptions } from "./driver.js";

export { BaileysDriver, type BaileysDriverOptions } from "./driver.js";

/** Makes provider 'baileys' available to the channel manager (options: tests inject a fake socket). */
export function registerBaileys(options: BaileysDriverOptions = {}): void {
  registerDriverFactory("baileys", (ctx, input) => new BaileysDriver(ctx, input, options));
}

/**
 * Registers the driver and, on start, also resumes Baileys sessions that were reconnecting
 * (OPENING) when the process stopped; CONNECTED ones are resumed by the channel manager.
 */
export const baileysChannel: Domain = (api, ctx) => {
  registerBaileys();
  api.addHook("onReady", async () => {
    // a web process runs no session (ROLE=web): the workers resume them
    if (!ctx.config.runSessions) return;
    const rows = await ctx.sql.many<{ id: number; company_id: number }>(
      "SELECT id, company_id FROM whatsapps WHERE provider = 'baileys' AND status = 'OPENING' ORDER BY id",
    );
    for (const w of rows) {
      if (channels(ctx).get(w.id)) continue;
      await channels(ctx)
        .start(w.company_id, w.id, "baileys", true)
        .catch((err: unknown) => ctx.log.error({ err, companyId: w.company_id, whatsappId: w.id }, "could not resume a Baileys session at start-up"));
    }
  });
};
