import { COST_CENTER_PAGE_SIZE, type CostCenter, type CostCenterPage, type costCenterQuery } from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import * as repo from "./repository.js";

type Query = z.output<typeof costCenterQuery>;

const notFound = () => new AppError("ERR_NO_COST_CENTER_FOUND", "Centro de custo não encontrado");
const present = (r: repo.CostCenterRow): CostCenter => ({ id: r.id, name: r.name });

/** GET /sms/cost-center/: the SMS service's page shape, 40 a page. */
export async function listCostCenters(ctx: AppContext, companyId: number, q: Query): Promise<CostCenterPage> {
  const { rows, count } = await repo.listCostCenters(ctx.sql, companyId, {
    name: (q.name ?? "").trim(),
    limit: COST_CENTER_PAGE_SIZE,
    offset: (q.page - 1) * COST_CENTER_PAGE_SIZE,
  });
  return { results: rows.map(present), count };
}

export async function getCostCenter(ctx: AppContext, companyId: number, id: number): Promise<CostCenter> {
  const row = await repo.findCostCenter(ctx.sql, companyId, id);
  if (!row) throw notFound();
  return present(row);
}

export async function createCostCenter(ctx: AppContext, companyId: number, name: string): Promise<CostCenter> {
  return present(await repo.insertCostCenter(ctx.sql, companyId, name));
}

export async function updateCostCenter(ctx: AppContext, companyId: number, id: number, name: string): Promise<CostCenter> {
  const row = await repo.updateCostCenter(ctx.sql, companyId, id, name);
  if (!row) throw notFound();
  return present(row);
}
