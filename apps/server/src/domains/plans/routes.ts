import { idParam, messageResponse, plan, planInput, planUpdateInput, publicPlan } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as plans from "./service.js";

const superOnly = { gate: { superOnly: true } };

export const plansRoutes: Domain = (api, ctx) => {
  // Public: the sign-up form lists the plans (name, limits and price only).
  api.get(
    "/plans/list",
    { config: { public: true, rateLimit: { max: 60, timeWindow: "1 minute" } }, schema: { response: { 200: z.array(publicPlan) } } },
    () => plans.listPublicPlans(ctx),
  );

  api.get("/plans/all", { config: superOnly, schema: { response: { 200: z.array(plan) } } }, () => plans.listPlans(ctx));

  api.get("/plans/:id", { config: superOnly, schema: { params: idParam, response: { 200: plan } } }, (request) =>
    plans.showPlan(ctx, request.params.id),
  );

  api.post("/plans", { config: superOnly, schema: { body: planInput, response: { 200: plan } } }, (request) =>
    plans.createPlan(ctx, request.body),
  );

  api.put("/plans/:id", { config: superOnly, schema: { params: idParam, body: planUpdateInput, response: { 200: plan } } }, (request) =>
    plans.updatePlan(ctx, request.params.id, request.body),
  );

  api.delete("/plans/:id", { config: superOnly, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await plans.deletePlan(ctx, request.params.id);
    return { message: "Plan deleted" };
  });
};
