import { Readable } from "node:stream";
import { EMAIL_SOURCE, invalidRowsPage, invalidRowsQuery, emailCampaign, emailCampaignCreated, emailCampaignCreateInput, emailCampaignsPage, emailCampaignsQuery, idParam } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import type { Domain } from "../../core/domain.js";
import { campaignCaller, externalRouteConfig } from "../external-api/auth.js";
import { EmailDispatcher } from "../email-dispatch/engine.js";
import { mailDriverOf } from "../email-transport/shared-driver.js";
import { cancelEmailCampaign, pauseEmailCampaign, resumeEmailCampaign, type DispatchHooks } from "./actions.js";
import { analyseEmailCampaign, EMAIL_ANALYSIS_JOB, emailAnalysisPayload } from "./analysis.js";
import { findEmailCampaign, invalidRows } from "./repository.js";
import { createEmailCampaign, emailCampaignNotFound, getEmailCampaign, listEmailCampaigns, triggerEmailCampaign } from "./service.js";
import { receiveEmailCampaignFile } from "./upload.js";
import { csvBody, noBody } from "../../core/openapi.js";
import { runsBackground } from "../../core/roles.js";

/** The PUT body as the "*" parser left it (a stream); a JSON body (already parsed) reads as empty. */
const bodyStream = (body: unknown): Readable => (body instanceof Readable ? body : Readable.from([]));

/** Supervisors and above, plan useCampaigns, company setting campaignsEnabled (the WhatsApp campaigns' gate). */
const gate = { gate: { minProfile: "supervisor" as const, planFlag: "useCampaigns" as const, companySetting: "campaignsEnabled" as const } };

/** The Messages API sees only the campaigns created through it (source 1); the web's are "not found". */
async function assertApiCampaign(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const row = await findEmailCampaign(ctx.sql, companyId, id);
  if (row?.source !== EMAIL_SOURCE.API) throw emailCampaignNotFound();
}

/**
 * E-mail campaigns (spec 3 §7 "E-mail service"): create, PUT the CSV, the durable analysis, the list,
 * the trigger, pause, resume and cancel, and the dispatcher (in processes that run jobs, or EMAIL_DISPATCH=true).
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
  const hooks: DispatchHooks = { kick, halt: (id) => dispatcher.halt(id) };
  if (runsBackground(ctx.config, options.enabled)) api.addHook("onReady", async () => dispatcher.start());
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
  api.get(
    "/email/campaigns/:id/invalid-rows",
    { config: gate, schema: { params: idParam, querystring: invalidRowsQuery, response: { 200: invalidRowsPage } } },
    async (request) => {
      const { companyId } = request.actor;
      if (!(await findEmailCampaign(ctx.sql, companyId, request.params.id))) throw emailCampaignNotFound();
      const { page, page_size } = request.query;
      return invalidRows(ctx.sql, companyId, request.params.id, page_size, (page - 1) * page_size);
    },
  );
  api.put("/email/campaigns/:id/file", { config: { ...gate, requestBody: csvBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    receiveEmailCampaignFile(ctx, request.actor.companyId, request.params.id, request.headers["content-type"] ?? "", bodyStream(request.body)),
  );
  api.post("/email/campaigns/:id/trigger", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    triggerEmailCampaign(ctx, request.actor.companyId, request.params.id, kick),
  );
  api.patch("/email/campaigns/:id/pause", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    pauseEmailCampaign(ctx, request.actor.companyId, request.params.id, hooks),
  );
  api.patch("/email/campaigns/:id/resume", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    resumeEmailCampaign(ctx, request.actor.companyId, request.params.id, hooks),
  );
  api.post("/email/campaigns/:id/cancel", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) =>
    cancelEmailCampaign(ctx, request.actor.companyId, request.params.id, hooks),
  );

  // the Messages API (a connection's token, no user): campaigns of source 1, created, filled and triggered there
  const external = externalRouteConfig(ctx);
  api.post("/messages/email-campaigns", { config: external, schema: { body: emailCampaignCreateInput, response: { 200: emailCampaignCreated } } }, async (request) => {
    const { companyId } = await campaignCaller(ctx, request);
    return createEmailCampaign(ctx, { companyId, id: null }, request.body, EMAIL_SOURCE.API);
  });
  api.get("/messages/email-campaigns/:id", { config: external, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) => {
    const { companyId } = await campaignCaller(ctx, request);
    await assertApiCampaign(ctx, companyId, request.params.id);
    return getEmailCampaign(ctx, companyId, request.params.id);
  });
  api.put("/messages/email-campaigns/:id/file", { config: { ...external, requestBody: csvBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) => {
    const body = bodyStream(request.body);
    try {
      const { companyId } = await campaignCaller(ctx, request);
      await assertApiCampaign(ctx, companyId, request.params.id);
      return await receiveEmailCampaignFile(ctx, companyId, request.params.id, request.headers["content-type"] ?? "", body);
    } finally {
      // a refused caller's body is read and dropped, so the client hears the answer
      if (!body.readableEnded) body.resume();
    }
  });
  api.post("/messages/email-campaigns/:id/trigger", { config: { ...external, ...noBody }, schema: { params: idParam, response: { 200: emailCampaign } } }, async (request) => {
    const { companyId } = await campaignCaller(ctx, request);
    await assertApiCampaign(ctx, companyId, request.params.id);
    return triggerEmailCampaign(ctx, companyId, request.params.id, kick, EMAIL_SOURCE.API);
  });
};
