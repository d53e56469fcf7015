import {
  emailTemplate,
  emailTemplateInput,
  emailTemplatePage,
  gateForPath,
  idParam,
  messageTemplatesQuery,
  smsTemplate,
  smsTemplateInput,
  smsTemplatePage,
} from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

/** Supervisors and above, plan flag useCampaigns and the company's campaignsEnabled setting (like /templates). */
const campaigns = { gate: { ...gateForPath("/templates"), companySetting: "campaignsEnabled" as const } };

/**
 * SMS and e-mail templates at the SMS and e-mail services' paths (spec 3 §7). The trailing slash is
 * optional (the router ignores it).
 */
export const messageTemplatesRoutes: Domain = (api, ctx) => {
  api.get("/sms/templates", { config: campaigns, schema: { querystring: messageTemplatesQuery, response: { 200: smsTemplatePage } } }, async (request) =>
    service.listSmsTemplates(ctx, request.actor.companyId, request.query),
  );
  api.get("/sms/templates/:id", { config: campaigns, schema: { params: idParam, response: { 200: smsTemplate } } }, async (request) =>
    service.getSmsTemplate(ctx, request.actor.companyId, request.params.id),
  );
  api.post("/sms/templates", { config: campaigns, schema: { body: smsTemplateInput, response: { 200: smsTemplate } } }, async (request) =>
    service.createSmsTemplate(ctx, request.actor.companyId, request.body),
  );
  api.put("/sms/templates/:id", { config: campaigns, schema: { params: idParam, body: smsTemplateInput, response: { 200: smsTemplate } } }, async (request) =>
    service.updateSmsTemplate(ctx, request.actor.companyId, request.params.id, request.body),
  );

  api.get("/email/templates", { config: campaigns, schema: { querystring: messageTemplatesQuery, response: { 200: emailTemplatePage } } }, async (request) =>
    service.listEmailTemplates(ctx, request.actor.companyId, request.query),
  );
  api.get("/email/templates/:id", { config: campaigns, schema: { params: idParam, response: { 200: emailTemplate } } }, async (request) =>
    service.getEmailTemplate(ctx, request.actor.companyId, request.params.id),
  );
  api.post("/email/templates", { config: campaigns, schema: { body: emailTemplateInput, response: { 200: emailTemplate } } }, async (request) =>
    service.createEmailTemplate(ctx, request.actor.companyId, request.body),
  );
  api.put(
    "/email/templates/:id",
    { config: campaigns, schema: { params: idParam, body: emailTemplateInput, response: { 200: emailTemplate } } },
    async (request) => service.updateEmailTemplate(ctx, request.actor.companyId, request.params.id, request.body),
  );
};
