import { gateForPath, messageResponse, optOut, optOutInput, optOutPage, optOutParams, optOutQuery } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

/** Supervisors and above, plan flag useCampaigns and the company's campaignsEnabled setting (as the campaigns). */
const config = { gate: { ...gateForPath("/opt-outs"), companySetting: "campaignsEnabled" as const } };

/**
 * The company's opt-out list (docs/architecture.md "Opt-out list"): GET /opt-outs (paged, search,
 * channel), POST /opt-outs (one address or number), DELETE /opt-outs/{channel}/{address}.
 */
export const optOutsRoutes: Domain = (api, ctx) => {
  api.get("/opt-outs", { config, schema: { querystring: optOutQuery, response: { 200: optOutPage } } }, (request) =>
    service.pageOptOuts(ctx, request.actor.companyId, request.query),
  );
  api.post("/opt-outs", { config, schema: { body: optOutInput, response: { 200: optOut } } }, (request) =>
    service.addOptOut(ctx, request.actor, request.body, request.ip),
  );
  api.delete("/opt-outs/:channel/:address", { config, schema: { params: optOutParams, response: { 200: messageResponse } } }, async (request) => {
    await service.removeOptOut(ctx, request.actor, request.params.channel, request.params.address, request.ip);
    return { message: "Opt-out removed" };
  });
};
