import type { Plan, PlanInput, PlanUpdateInput } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { presentPlan, presentPublicPlan } from "./presenter.js";
import * as repo from "./repository.js";
import { isUniqueViolation } from "../../db/errors.js";

const notFound = () => new AppError("ERR_NOT_FOUND", "Plano não encontrado");
const nameTaken = () => new AppError("ERR_VALIDATION", "Já existe um plano com este nome", { fields: { name: "Already exists" } }, 409);

export async function listPublicPlans(ctx: AppContext) {
  return (await repo.listPlans(ctx.sql)).map(presentPublicPlan);
}

export async function listPlans(ctx: AppContext) {
  return (await repo.listPlans(ctx.sql)).map(presentPlan);
}

export async function showPlan(ctx: AppContext, id: number): Promise<Plan> {
  const row = await repo.findPlan(ctx.sql, id);
  if (!row) throw notFound();
  return presentPlan(row);
}

export async function createPlan(ctx: AppContext, input: PlanInput): Promise<Plan> {
  const id = await repo.insertPlan(ctx.sql, input).catch((err: unknown) => {
    throw isUniqueViolation(err) ? nameTaken() : err;
  });
  return showPlan(ctx, id);
}

export async function updatePlan(ctx: AppContext, id: number, input: PlanUpdateInput): Promise<Plan> {
  const updated = await repo.updatePlan(ctx.sql, id, input).catch((err: unknown) => {
    throw isUniqueViolation(err) ? nameTaken() : err;
  });
  if (!updated) throw notFound();
  return showPlan(ctx, id);
}

/** A plan some company uses cannot be deleted: move those companies first. */
export async function deletePlan(ctx: AppContext, id: number): Promise<void> {
  await ctx.sql.tx(async (sql) => {
    if (!(await repo.findPlan(sql, id))) throw notFound();
    const inUse = await repo.companiesOnPlan(sql, id);
    if (inUse > 0) {
      throw new AppError("ERR_VALIDATION", `O plano está em uso por ${inUse} empresa(s) e não pode ser excluído`, { companies: inUse });
    }
    await repo.deletePlan(sql, id);
  });
}
