import { rename, rm } from "node:fs/promises";
import path from "node:path";
import {
  BR_DATE,
  CAMPAIGN_MESSAGES,
  campaignCreateFields,
  dateToZonedLocal,
  zonedLocalToDate,
  type ErrorCode,
} from "@atende/shared";
import type { z } from "zod";
import type { campaignRecipientsQuery, campaignsQuery } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { companyTimeZone } from "../companies/repository.js";
import { parseOrThrow } from "../messages/multipart.js";
import { ANALYSIS_JOB } from "./analysis.js";
import { emitCampaign } from "./events.js";
import { presentCampaign, presentRecipient } from "./presenter.js";
import * as repo from "./repository.js";
import { queueScheduledStart, scheduleInstant } from "./schedule.js";
import { campaignDir, type CampaignUpload } from "./upload.js";
import { templateRefusal, templateTexts } from "./template-check.js";
import { assertNoBlockedWords } from "../keywords/service.js";

const refuse = (code: ErrorCode, message: string, field: string) => new AppError(code, message, { fields: { [field]: message } });
const notFound = () => new AppError("ERR_CAMPAIGN_NOT_FOUND", CAMPAIGN_MESSAGES.notFound);

const present = (v: string | string[] | undefined) => (Array.isArray(v) ? v.some((x) => x.trim() !== "") : v !== undefined && v.trim() !== "");

/** Spec 3 §5, in the spec's order: cost center, title, file, BM, template, queue; then the file's type and size. */
function requiredRefusal(u: CampaignUpload): AppError | null {
  const f = u.fields;
  if (!present(f.costCenterId)) return refuse("ERR_CAMPAIGN_COST_CENTER_REQUIRED", CAMPAIGN_MESSAGES.costCenterRequired, "costCenterId");
  if (!present(f.title)) return refuse("ERR_CAMPAIGN_TITLE_REQUIRED", CAMPAIGN_MESSAGES.titleRequired, "title");
  if (u.fileError === "extension") return refuse("ERR_CAMPAIGN_FILE_EXTENSION", CAMPAIGN_MESSAGES.extension, "file");
  if (u.fileError === "tooBig") return refuse("ERR_CAMPAIGN_FILE_TOO_LARGE", CAMPAIGN_MESSAGES.tooBig, "file");
  if (!u.file) return refuse("ERR_CAMPAIGN_FILE_REQUIRED", CAMPAIGN_MESSAGES.fileRequired, "file");
  if (!present(f.businessIds)) return refuse("ERR_CAMPAIGN_BUSINESS_REQUIRED", CAMPAIGN_MESSAGES.businessRequired, "businessIds");
  if (!present(f.templateIds)) return refuse("ERR_CAMPAIGN_TEMPLATE_REQUIRED", CAMPAIGN_MESSAGES.templateRequired, "templateIds");
  if (!present(f.queueId)) return refuse("ERR_CAMPAIGN_QUEUE_REQUIRED", CAMPAIGN_MESSAGES.queueRequired, "queueId");
  return null;
}

/**
 * POST /campaigns: checks the fields and that everything named belongs to the company (and templates
 * and numbers to the chosen BM), then in one transaction inserts the campaign (ANALYZING), its
 * templates and numbers, moves the uploaded file to DATA_DIR/campaigns/<company>/<campaign>.csv and
 * queues the analysis job (the job exists exactly when the campaign does).
 */
export async function createCampaign(ctx: AppContext, actor: RequestActor, upload: CampaignUpload) {
  let stored: string | null = upload.file?.tmpPath ?? null;
  try {
    const refusal = requiredRefusal(upload);
    if (refusal) throw refusal;
    const input = parseOrThrow(campaignCreateFields, upload.fields);
    const companyId = actor.companyId;
    const businessId = input.businessIds[0]!;
    if (!(await repo.costCenterExists(ctx.sql, companyId, input.costCenterId))) {
      throw refuse("ERR_NOT_FOUND", CAMPAIGN_MESSAGES.costCenterNotFound, "costCenterId");
    }
    if (!(await repo.businessExists(ctx.sql, companyId, businessId))) throw refuse("ERR_NOT_FOUND", CAMPAIGN_MESSAGES.businessNotFound, "businessIds");
    if (!(await repo.queueExists(ctx.sql, companyId, input.queueId))) throw refuse("ERR_NOT_FOUND", CAMPAIGN_MESSAGES.queueNotFound, "queueId");
    if (input.integrationId !== undefined && !(await repo.integrationExists(ctx.sql, companyId, input.integrationId))) {
      throw refuse("ERR_NOT_FOUND", CAMPAIGN_MESSAGES.botNotFound, "integrationId");
    }
    const templateIds = [...new Set(input.templateIds)];
    const templates = await repo.templatesOf(ctx.sql, companyId, templateIds);
    for (const id of templateIds) {
      const t = templates.find((x) => x.id === id);
      const why = !t || t.business_id !== businessId ? CAMPAIGN_MESSAGES.templateInvalid : templateRefusal(t);
      // the shared rule's message says why (not approved, unsupported header or button)
      if (why) throw refuse("ERR_CAMPAIGN_TEMPLATE_INVALID", why, "templateIds");
    }
    // the company's block list (Keywords): the templates' texts may not carry a listed word
    await assertNoBlockedWords(ctx.sql, companyId, templates.flatMap(templateTexts));
    const active = (await repo.activeNumbersOf(ctx.sql, companyId, businessId)).map((n) => n.id);
    const chosen = [...new Set(input.phoneIds)];
    if (chosen.some((id) => !active.includes(id))) throw refuse("ERR_CAMPAIGN_NUMBER_INVALID", CAMPAIGN_MESSAGES.numberInvalid, "phoneIds");
    const numbers = chosen.length ? chosen : active;
    if (numbers.length === 0) throw refuse("ERR_CAMPAIGN_NUMBER_INVALID", CAMPAIGN_MESSAGES.noNumbers, "phoneIds");
    const scheduledAt = input.scheduledAt ? await scheduleInstant(ctx.sql, companyId, input.scheduledAt) : null;
    const file = upload.file!;

    const id = await ctx.sql.tx(async (tx) => {
      const campaignId = await repo.insertCampaign(
        tx,
        {
          companyId,
          userId: actor.id,
          name: input.title,
          costCenterId: input.costCenterId,
          businessId,
          queueId: input.queueId,
          // the optional bot (queue integration) that answers the recipients' replies
          integrationId: input.integrationId ?? null,
          fileName: file.fileName.slice(0, 255),
          fileSize: file.size,
          scheduledAt: null,
        },
        templateIds,
        numbers,
      );
      const target = path.join(campaignDir(ctx.config.dataDir, companyId), `${campaignId}.csv`);
      await rename(file.tmpPath, target);
      stored = target;
      await repo.setFilePath(tx, companyId, campaignId, target);
      await ctx.jobs.send(ANALYSIS_JOB, { companyId, campaignId }, { db: tx, singletonKey: `campaign-analysis-${campaignId}` });
      if (scheduledAt) await queueScheduledStart(ctx, tx, companyId, campaignId, scheduledAt);
      return campaignId;
    });
    stored = null; // the analysis owns the file now
    await emitCampaign(ctx, companyId, id, "create");
    return getCampaign(ctx, companyId, id);
  } finally {
    if (stored) {
      await rm(stored, { force: true }).catch((err: unknown) => ctx.log.error({ err, file: stored }, "could not remove a refused campaign upload"));
    }
  }
}

export async function getCampaign(ctx: AppContext, companyId: number, id: number) {
  const row = await repo.findCampaign(ctx.sql, companyId, id);
  if (!row) throw notFound();
  return presentCampaign(row);
}

/** dd/MM/yyyy → yyyy-MM-dd. */
const isoDay = (br: string) => {
  const m = BR_DATE.exec(br)!;
  return `${m[3]}-${m[2]}-${m[1]}`;
};
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
function dayStart(day: string, timeZone: string, field: string): Date {
  const at = zonedLocalToDate(`${day}T00:00`, timeZone);
  if (Number.isNaN(at.getTime())) throw new AppError("ERR_VALIDATION", "Data inválida", { fields: { [field]: "Data inválida" } });
  return at;
}

/** GET /campaigns: newest first; start and end dates are whole days (both included) in the company's zone. */
export async function listCampaigns(ctx: AppContext, companyId: number, q: z.output<typeof campaignsQuery>) {
  const timeZone = q.startDate || q.endDate ? await companyTimeZone(ctx.sql, companyId) : "UTC";
  const start = q.startDate ? dayStart(isoDay(q.startDate), timeZone, "startDate") : undefined;
  const endDay = q.endDate ? isoDay(q.endDate) : undefined;
  // the day itself must exist (31/02 is refused, not rolled over) before the next one is taken
  const end = endDay && dayStart(endDay, timeZone, "endDate") ? dayStart(nextDay(endDay), timeZone, "endDate") : undefined;
  const { rows, count } = await repo.listCampaigns(ctx.sql, {
    companyId,
    start,
    end,
    status: q.status,
    costCenterId: q.costCenterId,
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
  });
  return { data: rows.map(presentCampaign), countPages: Math.ceil(count / q.limit) };
}

/** The calendar's month (yyyy-MM in the company's zone): campaigns scheduled to start in it. */
export async function listCalendar(ctx: AppContext, companyId: number, month: string | undefined) {
  const timeZone = await companyTimeZone(ctx.sql, companyId);
  const m = month ?? dateToZonedLocal(new Date(), timeZone).slice(0, 7);
  const [y, mo] = m.split("-").map(Number) as [number, number];
  const next = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, "0")}`;
  const rows = await repo.listScheduled(ctx.sql, companyId, dayStart(`${m}-01`, timeZone, "month"), dayStart(`${next}-01`, timeZone, "month"));
  return rows.map(presentCampaign);
}

export async function listRecipients(ctx: AppContext, companyId: number, id: number, q: z.output<typeof campaignRecipientsQuery>) {
  if (!(await repo.findCampaign(ctx.sql, companyId, id))) throw notFound();
  const { rows, count } = await repo.listRecipients(ctx.sql, companyId, id, q.state, q.limit, (q.page - 1) * q.limit);
  return { data: rows.map(presentRecipient), countPages: Math.ceil(count / q.limit), count };
}
