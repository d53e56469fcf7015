import { Readable } from "node:stream";
import { emailCampaign, emailCampaignCreated, emailCampaignCreateInput, emailCampaignsPage, emailCampaignsQuery, idParam } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { EmailDispatcher } from "../email-dispatch/engine.js";
import { mailDriverOf } from "../email-transport/shared-driver.js";
import { analyseEmailCampaign, EMAIL_ANALYSIS_JOB, emailAnalysisPayload } from "./analysis.js";
import { createEmailCampaign, getEmailCampaign, listEmailCampaigns, triggerEmailCampaign } from "./service.js";
import { receiveEmailCampaignFile } from "./upload.js";
import { csvBody, noBody } from "../../core/openapi.js";

/** The PUT body as the "*" parser left it (a stream); a JSON body (already parsed) reads as empty. */
const bodyStream = (body: unknown): Readable => (body instanceof Readable ? body : Readable.from([]));

/** Supervisors and above, plan useCampaigns, company setting campaignsEnabled (the WhatsApp campaigns' gate). */
const gate = { gate: { minProfile: "supervisor" as const, planFlag: "useCampaigns" as const, companySetting: "campaignsEnabled" as const } };

/**
 * E-mail campaigns (spec 3 §7 "E-mail service"): create, PUT the CSV, the durable analysis, the list,
 * the trigger, and the dispatcher (in processes that run jobs, or EMAIL_DISPATCH=true).
 */
export const emailCampaignsRoutes: Domain = (api, ctx) => {
  ctx.jobs.define({
    name: EMAIL_ANALYSIS_JOB,
    schema: emailAnalysisPayload,
    retryLimit: 5,
    batchSize: 1,
    concurrency: 2,
    handler: (payload) => analyseEmailCampaign(ctx, payload),
  });
  const { options } = mailDriverOf(ctx);
  const dispatcher = new EmailDispatcher(ctx, options, () => mailDriverOf(ctx).driver);
  const kick = () => dispatcher.kick();
  if (options.enabled ?? ctx.config.runJobs) api.addHook("onReady", async () => dispatcher.start());
  api.addHook("onClose", async () => {
    await dispatcher.stop();
    await mailDriverOf(ctx).driver.close();
  });

  // the CSV body of PUT upload_url is read as a stream by the handler (never buffered; 100 MB cap there)
  api.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

  api.get("/email/campaigns", { config: gate, schema: { querystring: emailCampaignsQuery, response: { 200: emailCampaignsPage } } }, async (request) =>
    listEmailCampaigns(ctx, request.actor.companyId, request.query),
  );
  api.post("/email/campaigns", { config: gate, schema: { body: emailCampaignCreateInput, response: { 200: emailCampaignCreated } } }, async (request) =>
    createEmailCampaign(ctx, request.actor, request.body),
  );
  api.get("/email/campaigns/:id", { config: gate, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    getEmailCampaign(ctx, request.actor.companyId, request.params.id),
  );
  api.put("/email/campaigns/:id/file", { config: { ...gate, requestBody: csvBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    receiveEmailCampaignFile(ctx, request.actor.companyId, request.params.id, request.headers["content-type"] ?? "", bodyStream(request.body)),
  );
  api.post("/email/campaigns/:id/trigger", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    triggerEmailCampaign(ctx, request.actor.companyId, request.params.id, kick),
  );
};
