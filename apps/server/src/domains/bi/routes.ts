import { biEmbed, gateForPath } from "@atende/shared";
import type { Domain } from "../../core/domain.js";

/** GET /bi (admins, like the page): the company's biUrl and this server's extra BI hosts; the page applies biUrlRefusal. */
export const biRoutes: Domain = (api, ctx) => {
  api.get("/bi", { config: { gate: gateForPath("/bi") }, schema: { response: { 200: biEmbed } } }, async (request) => {
    const row = await ctx.sql.one<{ bi_url: string }>("SELECT bi_url FROM companies WHERE id = $1", [request.actor.companyId]);
    return { biUrl: row.bi_url, extraHosts: ctx.config.biAllowedHosts };
  });
};
