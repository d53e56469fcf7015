import type { Readable } from "node:stream";
import { z } from "zod";
import { idParam, invalidRowsPage, invalidRowsQuery, SMS_CAMPAIGN_MESSAGES, smsCampaign, smsCampaignTemplate, smsCampaignTemplatesQuery, smsCampaignCreateInput, smsReportPage, smsReportQuery, successResponse } from "@atende/shared";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../core/context.js";
import type { Domain } from "../../core/domain.js";
import { AppError } from "../../core/errors.js";
import { campaignCaller, externalRouteConfig } from "../external-api/auth.js";
import { smsDriverFor } from "../sms-provider/index.js";
import { cancelSmsCampaign, pauseSmsCampaign, resumeSmsCampaign, triggerSmsCampaign } from "./actions.js";
import { analyseSmsCampaign, SMS_ANALYSIS_JOB, smsAnalysisPayload } from "./analysis.js";
import { createSmsCampaign, getSmsCampaign } from "./create-campaign.js";
import { SmsDispatcher } from "./dispatcher.js";
import { smsNotifier } from "./events.js";
import { smsDispatchOptions, type SmsDispatchOptions } from "./options.js";
import { listCampaignTemplates, smsReport } from "./report.js";
import { smsInvalidRows } from "./repository.js";
import { runSmsScheduledStart, SMS_SCHEDULED_START_JOB, smsScheduledStartPayload } from "./schedule.js";
import { receiveSmsCampaignFile } from "./upload.js";
import type { SmsDriver } from "../sms-provider/driver.js";
import { csvBody, noBody } from "../../core/openapi.js";
import { runsBackground } from "../../core/roles.js";

/** The Messages API sees only the SMS campaigns created through it (source API); the web's are "not found". */
async function assertApiCampaign(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const row = await ctx.sql.maybe<{ source: string }>("SELECT source FROM sms_campaigns WHERE company_id = $1 AND id = $2", [companyId, id]);
  if (row?.source !== "API") throw new AppError("ERR_SMS_CAMPAIGN_NOT_FOUND", SMS_CAMPAIGN_MESSAGES.notFound);
}

/** Supervisors and above, the plan's useCampaigns flag and the company's campaignsEnabled setting (like the WhatsApp campaigns). */
const gate = { gate: { minProfile: "supervisor" as const, planFlag: "useCampaigns" as const, companySetting: "campaignsEnabled" as const } };
const ok = { success: true };

/**
 * SMS campaigns (spec 3 §7 'SMS service'; docs/api.md "SMS campaigns"): creation, the CSV upload and
 * its analysis, the report, trigger/pause/resume/cancel, the scheduled start, and the engine, which
 * runs in processes that run jobs. `o` replaces the driver and timings in tests.
 */
export function createSmsCampaignsDomain(o: { options?: Partial<SmsDispatchOptions>; driver?: SmsDriver } = {}): Domain {
  return (api, ctx) => {
    const opts = { ...smsDispatchOptions(), ...o.options };
    const driver = o.driver ?? smsDriverFor(ctx);
    const dispatcher = driver ? new SmsDispatcher(ctx, opts, driver, ctx.config.sms.ratePerSecond) : null;
    const kick = () => dispatcher?.kick();

    ctx.jobs.define({ name: SMS_ANALYSIS_JOB, schema: smsAnalysisPayload, retryLimit: 5, batchSize: 1, concurrency: 2, handler: (p) => analyseSmsCampaign(ctx, p) });
    ctx.jobs.define({ name: SMS_SCHEDULED_START_JOB, schema: smsScheduledStartPayload, handler: (p) => runSmsScheduledStart(ctx, p, kick) });

    if (dispatcher && runsBackground(ctx.config, opts.enabled)) api.addHook("onReady", async () => dispatcher.start());
    api.addHook("onClose", async () => {
      await dispatcher?.stop();
      smsNotifier(ctx).stop();
    });

    // the form's lookup: templates with their {{variables}} and segment count (the template CRUD is the templates domain's)
    api.get("/sms/campaign-templates/", { config: gate, schema: { querystring: smsCampaignTemplatesQuery, response: { 200: z.array(smsCampaignTemplate) } } }, async (request) =>
      listCampaignTemplates(ctx, request.actor.companyId, request.query.title ?? ""),
    );
    api.get("/sms/report/", { config: gate, schema: { querystring: smsReportQuery, response: { 200: smsReportPage } } }, async (request) =>
      smsReport(ctx, request.actor.companyId, request.query),
    );
    api.post("/sms/campaigns/", { config: gate, schema: { body: smsCampaignCreateInput, response: { 200: smsCampaign } } }, async (request) =>
      createSmsCampaign(ctx, request.actor, request.body),
    );
    api.get("/sms/campaigns/:id/", { config: gate, schema: { params: idParam, response: { 200: smsCampaign } } }, async (request) =>
      getSmsCampaign(ctx, request.actor.companyId, request.params.id),
    );
    api.get(
      "/sms/campaigns/:id/invalid-rows/",
      { config: gate, schema: { params: idParam, querystring: invalidRowsQuery, response: { 200: invalidRowsPage } } },
      async (request) => {
        const { companyId } = request.actor;
        await getSmsCampaign(ctx, companyId, request.params.id);
        const { page, page_size } = request.query;
        return smsInvalidRows(ctx.sql, companyId, request.params.id, page_size, (page - 1) * page_size);
      },
    );
    api.patch("/sms/campaigns/:id/pause/", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: successResponse } } }, async (request) => {
      await pauseSmsCampaign(ctx, request.actor.companyId, request.params.id);
      return ok;
    });
    api.patch("/sms/campaigns/:id/resume/", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: successResponse } } }, async (request) => {
      await resumeSmsCampaign(ctx, request.actor.companyId, request.params.id, kick);
      return ok;
    });
    api.post("/sms/campaigns/:id/trigger/", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: successResponse } } }, async (request) => {
      await triggerSmsCampaign(ctx, request.actor.companyId, request.params.id, kick);
      return ok;
    });
    api.post("/sms/campaigns/:id/cancel/", { config: { ...gate, ...noBody }, schema: { params: idParam, response: { 200: successResponse } } }, async (request) => {
      await cancelSmsCampaign(ctx, request.actor.companyId, request.params.id);
      return ok;
    });

    // the Messages API (a connection's token, no user): campaigns of source API, created, filled and triggered there
    const external = externalRouteConfig(ctx);
    api.post("/messages/sms-campaigns", { config: external, schema: { body: smsCampaignCreateInput, response: { 200: smsCampaign } } }, async (request) => {
      const { companyId } = await campaignCaller(ctx, request);
      return createSmsCampaign(ctx, { companyId, id: null }, request.body, "API");
    });
    api.get("/messages/sms-campaigns/:id", { config: external, schema: { params: idParam, response: { 200: smsCampaign } } }, async (request) => {
      const { companyId } = await campaignCaller(ctx, request);
      await assertApiCampaign(ctx, companyId, request.params.id);
      return getSmsCampaign(ctx, companyId, request.params.id);
    });
    api.post("/messages/sms-campaigns/:id/trigger", { config: { ...external, ...noBody }, schema: { params: idParam, response: { 200: successResponse } } }, async (request) => {
      const { companyId } = await campaignCaller(ctx, request);
      await triggerSmsCampaign(ctx, companyId, request.params.id, kick, true);
      return ok;
    });

    // the upload: its own scope, where any body arrives as the raw stream (written to disk as it comes)
    api.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
      scope.put("/sms/campaigns/:id/file/", { config: { ...gate, requestBody: csvBody }, schema: { params: idParam, response: { 200: smsCampaign } } }, async (request) => {
        const raw = request.body as Readable | undefined;
        const body = raw && typeof raw.pipe === "function" ? raw : null;
        await receiveSmsCampaignFile(ctx, request.actor.companyId, request.params.id, String(request.headers["content-type"] ?? ""), body);
        return getSmsCampaign(ctx, request.actor.companyId, request.params.id);
      });
      scope.put("/messages/sms-campaigns/:id/file", { config: { ...external, requestBody: csvBody }, schema: { params: idParam, response: { 200: smsCampaign } } }, async (request) => {
        const raw = request.body as Readable | undefined;
        const body = raw && typeof raw.pipe === "function" ? raw : null;
        try {
          const { companyId } = await campaignCaller(ctx, request);
          await assertApiCampaign(ctx, companyId, request.params.id);
          await receiveSmsCampaignFile(ctx, companyId, request.params.id, String(request.headers["content-type"] ?? ""), body);
          return await getSmsCampaign(ctx, companyId, request.params.id);
        } finally {
          // a refused caller's body is read and dropped, so the client hears the answer
          if (body && !body.readableEnded) body.resume();
        }
      });
    });
  };
}

export const smsCampaignsRoutes = createSmsCampaignsDomain();
