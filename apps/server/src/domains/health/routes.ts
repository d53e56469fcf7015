import { healthStatus } from "@atende/shared";
import type { Domain } from "../../core/domain.js";

/** GET /api/health: the database answers (kept for existing monitors; probes.ts has /healthz and /readyz). */
export const healthRoutes: Domain = (api, ctx) => {
  api.get("/health", { config: { public: true }, schema: { response: { 200: healthStatus } } }, async () => {
    await ctx.sql.one("SELECT 1");
    return { status: "ok" as const };
  });
};
