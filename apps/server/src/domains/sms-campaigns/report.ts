import { BR_DATE, countSmsSegments, smsTemplateVariables, zonedLocalToDate, type smsReportQuery } from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { companyTimeZone } from "../companies/repository.js";
import { presentSmsCampaign } from "./presenter.js";
import { listSmsCampaigns } from "./repository.js";

/** dd/MM/yyyy → the instant its day starts in the company's zone (a day that does not exist is refused). */
function dayStart(br: string, timeZone: string, field: string, plusDays = 0): Date {
  const m = BR_DATE.exec(br)!;
  const d = new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])));
  if (d.getUTCDate() !== Number(m[1])) throw new AppError("ERR_VALIDATION", "Data inválida", { fields: { [field]: "Data inválida" } });
  d.setUTCDate(d.getUTCDate() + plusDays);
  return zonedLocalToDate(`${d.toISOString().slice(0, 10)}T00:00`, timeZone);
}

/** GET /api/sms/report/: newest first; start and end dates are whole days (both included) in the company's zone. */
export async function smsReport(ctx: AppContext, companyId: number, q: z.output<typeof smsReportQuery>) {
  const timeZone = q.start_date || q.end_date ? await companyTimeZone(ctx.sql, companyId) : "UTC";
  const { rows, count } = await listSmsCampaigns(ctx.sql, {
    companyId,
    start: q.start_date ? dayStart(q.start_date, timeZone, "start_date") : undefined,
    end: q.end_date ? dayStart(q.end_date, timeZone, "end_date", 1) : undefined,
    status: q.status,
    costCenterId: q.cost_center_id,
    limit: q.page_size,
    offset: (q.page - 1) * q.page_size,
  });
  const now = new Date();
  return { results: rows.map((r) => presentSmsCampaign(r, now)), count };
}

/** The company's SMS templates for the campaign form (title contains `title`), newest first, at most 200. */
export async function listCampaignTemplates(ctx: AppContext, companyId: number, title: string) {
  const rows = await ctx.sql.many<{ id: number; title: string; content: string }>(
    `SELECT id, title, content FROM sms_templates WHERE company_id = $1 AND ($2 = '' OR title ILIKE '%' || $2 || '%')
      ORDER BY modified_at DESC, id DESC LIMIT 200`,
    [companyId, title.trim()],
  );
  return rows.map((r) => {
    const s = countSmsSegments(r.content);
    return { id: r.id, title: r.title, content: r.content, variables: smsTemplateVariables(r.content), encoding: s.encoding, segments: s.segments };
  });
}
