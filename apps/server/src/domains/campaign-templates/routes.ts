import {
  campaignPhone,
  campaignPhonesQuery,
  campaignTemplate,
  campaignTemplatesQuery,
  gateForPath,
  idParam,
  phoneThroughputInput,
  sandboxBusinessResult,
  templateType,
} from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import { createSandboxBusiness } from "./sandbox-business.js";
import * as service from "./service.js";
import { noBody } from "../../core/openapi.js";

/** Supervisors and above, plan flag useCampaigns and the company's campaignsEnabled setting. */
const campaigns = { gate: { ...gateForPath("/templates"), companySetting: "campaignsEnabled" as const } };
/** Changes to numbers and businesses: administrators (official-connections-page:editConnection, 1-core §6). */
const campaignsAdmin = { gate: { ...campaigns.gate, minProfile: "admin" as const } };

/**
 * The WhatsApp campaign service's calls (spec 3 §7): templates with their campaign validation, the
 * template types, the numbers with the portfolio's remaining 24-hour output, and the sandbox business.
 */
export const campaignTemplatesRoutes: Domain = (api, ctx) => {
  api.get("/templates", { config: campaigns, schema: { querystring: campaignTemplatesQuery, response: { 200: z.array(campaignTemplate) } } }, async (request) =>
    service.listTemplates(ctx, request.actor.companyId, request.query),
  );
  api.get("/template-types", { config: campaigns, schema: { response: { 200: z.array(templateType) } } }, async () => service.listTemplateTypes());
  api.get("/phones", { config: campaigns, schema: { querystring: campaignPhonesQuery, response: { 200: z.array(campaignPhone) } } }, async (request) =>
    service.listPhones(ctx, request.actor.companyId, request.query),
  );
  api.put("/phones/:id", { config: campaignsAdmin, schema: { params: idParam, body: phoneThroughputInput, response: { 200: campaignPhone } } }, async (request) =>
    service.updatePhoneThroughput(ctx, request.actor.companyId, request.params.id, request.body.throughputPerSecond),
  );
  api.post("/businesses/sandbox", { config: { ...campaignsAdmin, ...noBody }, schema: { response: { 200: sandboxBusinessResult } } }, async (request) =>
    createSandboxBusiness(ctx, request.actor.companyId),
  );
};
