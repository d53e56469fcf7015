import { dashboardQuery, dashboardResponse, gateForPath } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { startRollupSweep } from "./rollup.js";
import { loadDashboard } from "./service.js";

/** The dashboard (spec 1-core §7 GET /dashboard), for admins like the page `/`. */
export const dashboardRoutes: Domain = (api, ctx) => {
  // where jobs run, the report roll-up's pending changes are folded in every minute (domains/dashboard/rollup.ts)
  if (ctx.config.runJobs) {
    const stop = startRollupSweep(ctx.sql, ctx.log);
    api.addHook("onClose", async () => stop());
  }
  api.get(
    "/dashboard",
    { config: { gate: gateForPath("/") }, schema: { querystring: dashboardQuery, response: { 200: dashboardResponse } } },
    async (request) => loadDashboard(ctx, request.actor, request.query),
  );
};
