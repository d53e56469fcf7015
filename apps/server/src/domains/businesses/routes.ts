import { business, businessInput, businessSyncResult, businessUpdateInput, idParam } from "@atende/shared";
import { z } from "zod";
import "../../channels/cloud-api/index.js";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";
import { syncBusiness } from "./sync-business.js";
import { noBody } from "../../core/openapi.js";

const supervisor = { gate: { minProfile: "supervisor" as const } };
const admin = { gate: { minProfile: "admin" as const } };

/** WhatsApp Business Accounts of the official Cloud API: supervisors read, administrators change and sync. */
export const businessesRoutes: Domain = (api, ctx) => {
  api.get("/businesses", { config: supervisor, schema: { response: { 200: z.array(business) } } }, async (request) =>
    service.listBusinesses(ctx, request.actor.companyId),
  );
  api.get("/businesses/:id", { config: supervisor, schema: { params: idParam, response: { 200: business } } }, async (request) =>
    service.getBusiness(ctx, request.actor.companyId, request.params.id),
  );
  api.post("/businesses", { config: admin, schema: { body: businessInput, response: { 200: business } } }, async (request) =>
    service.createBusiness(ctx, request.actor.companyId, request.body),
  );
  api.put(
    "/businesses/:id",
    { config: admin, schema: { params: idParam, body: businessUpdateInput, response: { 200: business } } },
    async (request) => service.updateBusiness(ctx, request.actor.companyId, request.params.id, request.body),
  );
  api.post("/businesses/:id/sync", { config: { ...admin, ...noBody }, schema: { params: idParam, response: { 200: businessSyncResult } } }, async (request) =>
    syncBusiness(ctx, request.actor.companyId, request.params.id),
  );
};
