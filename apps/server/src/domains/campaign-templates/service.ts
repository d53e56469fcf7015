import {
  portfolioMessagingLimit,
  TEMPLATE_TYPES,
  type CampaignPhone,
  type campaignPhonesQuery,
  type CampaignTemplate,
  type campaignTemplatesQuery,
  type TemplateType,
} from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { presentCampaignTemplate, presentPhone } from "./presenter.js";
import * as repo from "./repository.js";

type TemplatesQuery = z.output<typeof campaignTemplatesQuery>;
type PhonesQuery = z.output<typeof campaignPhonesQuery>;

/**
 * GET /templates: a plain array; `isValid` filters on the computed validation. With `id`, the array
 * holds that template, and a template that is not the company's answers 404.
 */
export async function listTemplates(ctx: AppContext, companyId: number, q: TemplatesQuery): Promise<CampaignTemplate[]> {
  if (q.id !== undefined && !(await ctx.sql.maybe("SELECT 1 FROM whatsapp_templates WHERE company_id = $1 AND id = $2", [companyId, q.id]))) {
    throw new AppError("ERR_NO_TEMPLATE_FOUND", "Template não encontrado");
  }
  const rows = await repo.listTemplates(ctx.sql, companyId, {
    id: q.id,
    businessId: q.BusinessId,
    active: q.active === undefined ? undefined : q.active === "true",
    name: q.name,
    templateTypeId: q.TemplateTypeId,
  });
  const businessIds = [...new Set(rows.map((r) => r.business_id))];
  const phones = businessIds.length ? await repo.activePhones(ctx.sql, companyId, businessIds) : [];
  const byBusiness = new Map<number, { id: number; displayNumber: string }[]>();
  for (const p of phones) {
    const list = byBusiness.get(p.business_id) ?? [];
    list.push({ id: p.id, displayNumber: p.display_number });
    byBusiness.set(p.business_id, list);
  }
  const templates = rows.map((r) => presentCampaignTemplate(r, byBusiness.get(r.business_id) ?? []));
  if (q.isValid === undefined) return templates;
  const wanted = q.isValid === "true";
  return templates.filter((t) => t.validation.valid === wanted);
}

export function listTemplateTypes(): TemplateType[] {
  return TEMPLATE_TYPES.map((t) => ({ id: t.id, name: t.name }));
}

/**
 * The portfolio's unique users left for business-initiated messages in the moving 24 hours, per
 * business (null = unlimited): its tier limit minus the distinct phones already reached.
 */
export async function remainingOutputs(ctx: AppContext, companyId: number, businessIds: number[]): Promise<Map<number, number | null>> {
  const usage = await repo.portfolioUsage(ctx.sql, companyId, businessIds);
  return new Map(
    usage.map((u) => {
      const limit = portfolioMessagingLimit(u.tiers);
      return [u.business_id, limit === null ? null : Math.max(0, limit - u.used)];
    }),
  );
}

/** GET /phones: the active numbers (of one business when BusinessId is given); output=true adds remainingOutput. */
export async function listPhones(ctx: AppContext, companyId: number, q: PhonesQuery): Promise<CampaignPhone[]> {
  const rows = await repo.activePhones(ctx.sql, companyId, q.BusinessId ? [q.BusinessId] : null);
  if (q.output !== "true") return rows.map((r) => presentPhone(r));
  const remaining = await remainingOutputs(ctx, companyId, [...new Set(rows.map((r) => r.business_id))]);
  return rows.map((r) => presentPhone(r, remaining.get(r.business_id) ?? null));
}

/** PUT /phones/{id}: the number's campaign send rate (messages per second). */
export async function updatePhoneThroughput(ctx: AppContext, companyId: number, id: number, perSecond: number): Promise<CampaignPhone> {
  if (!(await repo.findPhone(ctx.sql, companyId, id))) throw new AppError("ERR_NO_WAPP_FOUND");
  await repo.setThroughput(ctx.sql, companyId, id, perSecond);
  return presentPhone((await repo.findPhone(ctx.sql, companyId, id))!);
}
