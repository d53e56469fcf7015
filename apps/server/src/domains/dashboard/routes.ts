import { dashboardQuery, dashboardResponse, gateForPath } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { loadDashboard } from "./service.js";

/** The dashboard (spec 1-core §7 GET /dashboard), for admins like the page `/`. */
export const dashboardRoutes: Domain = (api, ctx) => {
  api.get(
    "/dashboard",
    { config: { gate: gateForPath("/") }, schema: { querystring: dashboardQuery, response: { 200: dashboardResponse } } },
    async (request) => loadDashboard(ctx, request.actor, request.query),
  );
};
