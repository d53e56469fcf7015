import type { Domain } from "../../core/domain.js";

export const healthRoutes: Domain = (api, ctx) => {
  api.get("/health", { config: { public: true } }, async () => {
    await ctx.sql.one("SELECT 1");
    return { status: "ok" };
  });
};
