import {
  BR_DATE,
  CAMPAIGN_MESSAGES,
  EMAIL_CAMPAIGN_MESSAGES,
  EMAIL_SOURCE,
  type EmailCampaignsQuery,
  type ErrorCode,
  type emailCampaignCreateInput,
  type emailCampaignsQuery,
  zonedLocalToDate,
} from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { companyTimeZone } from "../companies/repository.js";
import { assertNoBlockedWords } from "../keywords/service.js";
import { findEmailTemplate } from "../message-templates/repository.js";
import { findVerifiedSender } from "../email-senders/repository.js";
import { emitEmailCampaign } from "./events.js";
import { presentEmailCampaign } from "./presenter.js";
import * as repo from "./repository.js";

const refuse = (code: ErrorCode, message: string, field: string) => new AppError(code, message, { fields: { [field]: message } });
export const emailCampaignNotFound = () => new AppError("ERR_CAMPAIGN_NOT_FOUND", EMAIL_CAMPAIGN_MESSAGES.notFound);

type CreateInput = z.output<typeof emailCampaignCreateInput>;

/** Spec 3 §5 in its order: cost center, title, file; then the e-mail section's sender and template. */
function requiredRefusal(i: CreateInput): AppError | null {
  if (!i.cost_center_id) return refuse("ERR_CAMPAIGN_COST_CENTER_REQUIRED", CAMPAIGN_MESSAGES.costCenterRequired, "cost_center_id");
  if (!i.title?.trim()) return refuse("ERR_CAMPAIGN_TITLE_REQUIRED", CAMPAIGN_MESSAGES.titleRequired, "title");
  if (!i.filename?.trim()) return refuse("ERR_CAMPAIGN_FILE_REQUIRED", CAMPAIGN_MESSAGES.fileRequired, "filename");
  if (!/\.csv$/i.test(i.filename.trim())) return refuse("ERR_CAMPAIGN_FILE_EXTENSION", CAMPAIGN_MESSAGES.extension, "filename");
  if (!i.sender) return refuse("ERR_EMAIL_SENDER_REQUIRED", EMAIL_CAMPAIGN_MESSAGES.senderRequired, "sender");
  if (!i.template) return refuse("ERR_EMAIL_TEMPLATE_REQUIRED", EMAIL_CAMPAIGN_MESSAGES.templateRequired, "template");
  return null;
}

/** Who creates a campaign: a user on the web (source 2), or a Messages API token (source 1, no user). */
export interface CampaignCreator {
  companyId: number;
  id: number | null;
}

/** Where the CSV goes: the web's route (user session) or the Messages API's (the same API token). */
export const uploadPath = (id: number, source: number = EMAIL_SOURCE.WEB) =>
  source === EMAIL_SOURCE.API ? `/api/messages/email-campaigns/${id}/file/` : `/api/email/campaigns/${id}/file/`;

/**
 * POST /email/campaigns/: checks the fields in the spec's order and that the cost center, the verified
 * sender and the template are the company's; copies the template's subject and HTML (checked against the
 * block list) and the sender's address; the campaign waits for its file (MISSING_FILE, `upload_url`).
 */
export async function createEmailCampaign(ctx: AppContext, actor: CampaignCreator, input: CreateInput, source: number = EMAIL_SOURCE.WEB) {
  const refusal = requiredRefusal(input);
  if (refusal) throw refusal;
  const companyId = actor.companyId;
  if (!(await repo.costCenterExists(ctx.sql, companyId, input.cost_center_id!))) {
    throw refuse("ERR_NOT_FOUND", CAMPAIGN_MESSAGES.costCenterNotFound, "cost_center_id");
  }
  const sender = await findVerifiedSender(ctx.sql, companyId, input.sender!);
  if (!sender) throw refuse("ERR_NOT_FOUND", EMAIL_CAMPAIGN_MESSAGES.senderNotFound, "sender");
  const template = await findEmailTemplate(ctx.sql, companyId, input.template!);
  if (!template) throw refuse("ERR_NOT_FOUND", EMAIL_CAMPAIGN_MESSAGES.templateNotFound, "template");
  await assertNoBlockedWords(ctx.sql, companyId, [template.subject, template.content]);
  const id = await repo.insertEmailCampaign(ctx.sql, {
    companyId,
    userId: actor.id,
    title: input.title!.trim(),
    source,
    costCenterId: input.cost_center_id!,
    senderId: sender.id,
    fromAddress: sender.email_address,
    templateId: template.id,
    subject: template.subject,
    html: template.content,
    fileName: input.filename!.trim().slice(0, 255),
  });
  await emitEmailCampaign(ctx, companyId, id, "create");
  const campaign = await getEmailCampaign(ctx, companyId, id);
  return { ...campaign, upload_url: `${ctx.config.publicUrl}${uploadPath(id, source)}` };
}

export async function getEmailCampaign(ctx: AppContext, companyId: number, id: number) {
  const row = await repo.findEmailCampaign(ctx.sql, companyId, id);
  if (!row) throw emailCampaignNotFound();
  return presentEmailCampaign(row);
}

function dayStart(br: string, timeZone: string, field: string, plusDays = 0): Date {
  const m = BR_DATE.exec(br)!;
  const d = new Date(`${m[3]}-${m[2]}-${m[1]}T00:00:00Z`);
  // 31/02 is refused, not rolled over
  if (d.getUTCDate() !== Number(m[1])) throw refuse("ERR_VALIDATION", "Data inválida", field);
  d.setUTCDate(d.getUTCDate() + plusDays);
  return zonedLocalToDate(`${d.toISOString().slice(0, 10)}T00:00`, timeZone);
}

/** GET /email/campaigns/: newest first, 40 a page; dates are whole days (both included) in the company's zone. */
export async function listEmailCampaigns(ctx: AppContext, companyId: number, q: z.output<typeof emailCampaignsQuery>) {
  const timeZone = q.start_date || q.end_date ? await companyTimeZone(ctx.sql, companyId) : "UTC";
  const { rows, count } = await repo.listEmailCampaigns(ctx.sql, {
    companyId,
    start: q.start_date ? dayStart(q.start_date, timeZone, "start_date") : undefined,
    end: q.end_date ? dayStart(q.end_date, timeZone, "end_date", 1) : undefined,
    status: q.status,
    costCenterId: q.cost_center_id,
    limit: q.page_size,
    offset: (q.page - 1) * q.page_size,
  });
  return { results: rows.map(presentEmailCampaign), count, next: q.page * q.page_size < count ? q.page + 1 : null };
}
export type { EmailCampaignsQuery };

/**
 * POST /email/campaigns/{id}/trigger/ (spec §4): only an ACTIVE campaign created on the web (source 2)
 * → TRIGGERING; the dispatcher moves it to RUNNING with its first claim and FINISHED when no row is left.
 * The Messages API's trigger passes source 1: a campaign created through the API is triggered there.
 */
export async function triggerEmailCampaign(ctx: AppContext, companyId: number, id: number, kick: () => void, source: number = EMAIL_SOURCE.WEB) {
  const row = await repo.findEmailCampaign(ctx.sql, companyId, id);
  if (!row) throw emailCampaignNotFound();
  const moved = await ctx.sql.exec(
    `UPDATE email_campaigns SET status = 'TRIGGERING', started_at = now(), updated_at = now()
      WHERE company_id = $1 AND id = $2 AND status = 'ACTIVE' AND source = $3`,
    [companyId, id, source],
  );
  if (!moved) {
    const message = source === EMAIL_SOURCE.API ? EMAIL_CAMPAIGN_MESSAGES.notTriggerableByApi : EMAIL_CAMPAIGN_MESSAGES.notTriggerable;
    throw new AppError("ERR_EMAIL_CAMPAIGN_NOT_TRIGGERABLE", message);
  }
  await emitEmailCampaign(ctx, companyId, id, "update");
  kick();
  return getEmailCampaign(ctx, companyId, id);
}
