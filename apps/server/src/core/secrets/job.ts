import { z } from "zod";
import type { AppContext } from "../context.js";
import { resealStoredSecrets } from "./reseal.js";

export const RESEAL_JOB = "secrets.reseal";

/**
 * The rotation's background half: every night, and whenever `npm run secrets:rotate` is not run by
 * hand, values sealed under an older key are sealed again under the first key of SECRETS_KEYS.
 */
export function defineResealJob(ctx: AppContext): void {
  ctx.jobs.define({
    name: RESEAL_JOB,
    schema: z.object({}).passthrough(),
    cron: "40 3 * * *",
    concurrency: 1,
    batchSize: 1,
    handler: async () => void (await resealStoredSecrets(ctx.sql, ctx.secrets, ctx.log, "rotate")),
  });
}
