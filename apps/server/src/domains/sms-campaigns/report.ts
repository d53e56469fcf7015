import { BR_DATE, zonedLocalToDate, type smsReportQuery } from "@atende/shared";
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
