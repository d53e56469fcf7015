import {
  campaign,
  campaignCreateFields,
  campaignRecipientsPage,
  campaignRecipientsQuery,
  campaignScheduleInput,
  campaignsPage,
  campaignsQuery,
  CAMPAIGN_MESSAGES,
  idParam,
  messageResponse,
} from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import { AppError } from "../../core/errors.js";
import { listBots } from "./repository.js";
import { analyseCampaign, analysisGaveUp, ANALYSIS_JOB, analysisJobPayload } from "./analysis.js";
import { removeCampaignSchedule, runScheduledStart, SCHEDULED_START_JOB, scheduledStartPayload, setCampaignSchedule } from "./schedule.js";
import * as campaigns from "./service.js";
import { receiveCampaignUpload } from "./upload.js";
import { upload } from "../../core/openapi.js";

/** Supervisors and above, the plan's useCampaigns flag and the company's campaignsEnabled setting (spec 1-core §2/§6 'Disparos'). */
const gate = { gate: { minProfile: "supervisor" as const, planFlag: "useCampaigns" as const, companySetting: "campaignsEnabled" as const } };
const calendarQuery = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Mês inválido (yyyy-MM)").optional() });

/** WhatsApp campaigns: creation with the CSV analysis, the list, the calendar of scheduled starts. */
export const campaignsRoutes: Domain = (api, ctx) => {
  ctx.jobs.define({
    name: ANALYSIS_JOB,
    schema: analysisJobPayload,
    retryLimit: 5,
    batchSize: 1,
    concurrency: 2,
    handler: (payload) => analyseCampaign(ctx, payload),
    onGiveUp: (payload) => analysisGaveUp(ctx, payload),
  });
  ctx.jobs.define({ name: SCHEDULED_START_JOB, schema: scheduledStartPayload, handler: (payload) => runScheduledStart(ctx, payload) });

  // the bots (queue integrations) the form's optional Bot field offers: names only, for campaign users
  // (the integrations page itself is for super users)
  api.get("/campaigns/bots", { config: gate, schema: { response: { 200: z.array(z.object({ id: z.number(), name: z.string() })) } } }, async (request) =>
    listBots(ctx.sql, request.actor.companyId),
  );

  api.get("/campaigns", { config: gate, schema: { querystring: campaignsQuery, response: { 200: campaignsPage } } }, async (request) =>
    campaigns.listCampaigns(ctx, request.actor.companyId, request.query),
  );

  api.get("/campaigns/calendar", { config: gate, schema: { querystring: calendarQuery, response: { 200: z.array(campaign) } } }, async (request) =>
    campaigns.listCalendar(ctx, request.actor.companyId, request.query.month),
  );

  api.get("/campaigns/:id", { config: gate, schema: { params: idParam, response: { 200: campaign } } }, async (request) =>
    campaigns.getCampaign(ctx, request.actor.companyId, request.params.id),
  );

  api.get(
    "/campaigns/:id/recipients",
    { config: gate, schema: { params: idParam, querystring: campaignRecipientsQuery, response: { 200: campaignRecipientsPage } } },
    async (request) => campaigns.listRecipients(ctx, request.actor.companyId, request.params.id, request.query),
  );

  api.post("/campaigns", { config: { ...gate, ...upload(["file"], campaignCreateFields) }, schema: { response: { 200: campaign } } }, async (request) => {
    if (!request.isMultipart()) throw new AppError("ERR_CAMPAIGN_FILE_REQUIRED", CAMPAIGN_MESSAGES.fileRequired, { fields: { file: CAMPAIGN_MESSAGES.fileRequired } });
    const upload = await receiveCampaignUpload(request, ctx.config.dataDir, request.actor.companyId);
    return campaigns.createCampaign(ctx, request.actor, upload);
  });

  api.put(
    "/campaigns/:id/schedule",
    { config: gate, schema: { params: idParam, body: campaignScheduleInput, response: { 200: campaign } } },
    async (request) => {
      await setCampaignSchedule(ctx, request.actor.companyId, request.params.id, request.body.scheduledAt);
      return campaigns.getCampaign(ctx, request.actor.companyId, request.params.id);
    },
  );

  api.delete("/campaigns/:id/schedule", { config: gate, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await removeCampaignSchedule(ctx, request.actor.companyId, request.params.id);
    return { message: "Agendamento removido" };
  });
};
