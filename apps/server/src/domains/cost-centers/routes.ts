import { costCenter, costCenterInput, costCenterPage, costCenterQuery, gateForPath, idParam } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

/** Supervisors and above, plan flag useCampaigns and the company's campaignsEnabled setting. */
const campaigns = { gate: { ...gateForPath("/cost-centers"), companySetting: "campaignsEnabled" as const } };

/**
 * Cost centers at the SMS service's paths (spec 3 §7), shared by the campaigns of every channel.
 * The trailing slash is optional (the router ignores it).
 */
export const costCentersRoutes: Domain = (api, ctx) => {
  api.get("/sms/cost-center", { config: campaigns, schema: { querystring: costCenterQuery, response: { 200: costCenterPage } } }, async (request) =>
    service.listCostCenters(ctx, request.actor.companyId, request.query),
  );
  api.get("/sms/cost-center/:id", { config: campaigns, schema: { params: idParam, response: { 200: costCenter } } }, async (request) =>
    service.getCostCenter(ctx, request.actor.companyId, request.params.id),
  );
  api.post("/sms/cost-center", { config: campaigns, schema: { body: costCenterInput, response: { 200: costCenter } } }, async (request) =>
    service.createCostCenter(ctx, request.actor.companyId, request.body.name),
  );
  api.put("/sms/cost-center/:id", { config: campaigns, schema: { params: idParam, body: costCenterInput, response: { 200: costCenter } } }, async (request) =>
    service.updateCostCenter(ctx, request.actor.companyId, request.params.id, request.body.name),
  );
};
