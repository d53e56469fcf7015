import {
  channel,
  type OfficialWhatsapp,
  type officialWhatsappBulkInput,
  type officialWhatsappQuery,
  type officialWhatsappUpdateInput,
  type WhatsappTemplate,
} from "@atende/shared";
import type { z } from "zod";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { presentWhatsapp } from "../whatsapp/presenter.js";
import * as whatsappRepo from "../whatsapp/repository.js";
import { presentOfficialNumber, presentTemplate, type TemplateRow } from "./presenter.js";
import * as repo from "./repository.js";

type Query = z.output<typeof officialWhatsappQuery>;
type UpdateInput = z.output<typeof officialWhatsappUpdateInput>;
type BulkInput = z.output<typeof officialWhatsappBulkInput>;

export async function listOfficialNumbers(ctx: AppContext, actor: RequestActor, q: Query): Promise<OfficialWhatsapp[]> {
  return (await repo.listNumbers(ctx.sql, actor.companyId, q)).map(presentOfficialNumber);
}

export async function getOfficialNumber(ctx: AppContext, actor: RequestActor, id: number): Promise<OfficialWhatsapp> {
  const row = await repo.findNumber(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  return presentOfficialNumber(row);
}

async function assertQueue(ctx: AppContext, companyId: number, queueId: number | null | undefined): Promise<void> {
  if (!queueId) return;
  const q = await ctx.sql.maybe("SELECT 1 FROM queues WHERE company_id = $1 AND id = $2", [companyId, queueId]);
  if (!q) throw new AppError("ERR_VALIDATION", "Fila não encontrada", { fields: { transferQueueId: "Fila não encontrada" } });
}

/** The connections changed with the numbers (their transfer queue) are announced on the whatsapp channel. */
async function announce(ctx: AppContext, companyId: number, whatsappIds: number[]): Promise<void> {
  for (const id of whatsappIds) {
    const row = await whatsappRepo.findWhatsapp(ctx.sql, companyId, id);
    if (row) ctx.realtime.emit(rooms.company(companyId), channel.whatsapp(companyId), { action: "update", whatsapp: presentWhatsapp(row) });
  }
}

export async function updateOfficialNumber(ctx: AppContext, actor: RequestActor, id: number, input: UpdateInput): Promise<OfficialWhatsapp> {
  if (!(await repo.findNumber(ctx.sql, actor.companyId, id))) throw new AppError("ERR_NO_WAPP_FOUND");
  await assertQueue(ctx, actor.companyId, input.transferQueueId);
  const rows = await ctx.sql.tx((sql) => repo.updateAdmin(sql, actor.companyId, [id], input));
  await announce(ctx, actor.companyId, rows.map((r) => r.whatsapp_id));
  return getOfficialNumber(ctx, actor, id);
}

/** PUT /officialWhatsapp/bulk: every id must be one of the company's numbers, or nothing changes. */
export async function bulkUpdate(ctx: AppContext, actor: RequestActor, input: BulkInput): Promise<{ updated: number; records: OfficialWhatsapp[] }> {
  const ids = [...new Set(input.ids)];
  const found = await repo.findNumbersByIds(ctx.sql, actor.companyId, ids);
  if (found.length !== ids.length) throw new AppError("ERR_NO_WAPP_FOUND");
  await assertQueue(ctx, actor.companyId, input.transferQueueId);
  const rows = await ctx.sql.tx((sql) => repo.updateAdmin(sql, actor.companyId, ids, { active: input.active, transferQueueId: input.transferQueueId }));
  await announce(ctx, actor.companyId, rows.map((r) => r.whatsapp_id));
  const records = (await repo.findNumbersByIds(ctx.sql, actor.companyId, ids)).map(presentOfficialNumber);
  return { updated: rows.length, records };
}

export async function listTemplates(ctx: AppContext, actor: RequestActor, businessId?: number): Promise<WhatsappTemplate[]> {
  const rows = await ctx.sql.many<TemplateRow>(
    `SELECT id, business_id, template_id, name, language, category, status, header_format, components, parameter_format, variable_count, rejected_reason, updated_at
       FROM whatsapp_templates WHERE company_id = $1 AND ($2::int IS NULL OR business_id = $2) ORDER BY name, language, id`,
    [actor.companyId, businessId ?? null],
  );
  return rows.map(presentTemplate);
}
