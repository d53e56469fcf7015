import type { Business, businessInput, businessUpdateInput } from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { nextRowId } from "../../core/secrets/columns.js";
import { presentBusiness } from "./presenter.js";
import * as repo from "./repository.js";
import { isUniqueViolation } from "../../db/errors.js";

type BusinessInput = z.output<typeof businessInput>;
type BusinessUpdateInput = z.output<typeof businessUpdateInput>;

function duplicateWaba(): AppError {
  return new AppError("ERR_VALIDATION", "Esta conta do WhatsApp Business já está cadastrada", { fields: { wabaId: "Já cadastrada" } });
}

/** The input with its secrets sealed for the row (an empty secret stays empty: "keep the stored one"). */
function sealed<T extends Partial<repo.BusinessValues>>(ctx: AppContext, companyId: number, id: number, input: T): T {
  const seal = (column: "access_token" | "app_secret" | "verify_token", plain: string | undefined) =>
    plain === undefined ? undefined : ctx.secrets.seal(repo.businessSecretPlace(companyId, id, column), plain);
  return { ...input, accessToken: seal("access_token", input.accessToken), appSecret: seal("app_secret", input.appSecret), verifyToken: seal("verify_token", input.verifyToken) };
}

export async function listBusinesses(ctx: AppContext, companyId: number): Promise<Business[]> {
  return (await repo.listBusinesses(ctx.sql, companyId)).map((r) => presentBusiness(r, ctx.config.publicUrl));
}

export async function getBusiness(ctx: AppContext, companyId: number, id: number): Promise<Business> {
  const row = await repo.findBusiness(ctx.sql, companyId, id);
  if (!row) throw new AppError("ERR_NOT_FOUND", "Business não encontrado");
  return presentBusiness(row, ctx.config.publicUrl);
}

export async function createBusiness(ctx: AppContext, companyId: number, input: BusinessInput): Promise<Business> {
  if (await repo.findByWaba(ctx.sql, companyId, input.wabaId)) throw duplicateWaba();
  const id = await nextRowId(ctx.sql, "businesses");
  await repo.insertBusiness(ctx.sql, companyId, id, sealed(ctx, companyId, id, input)).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw duplicateWaba();
    throw err;
  });
  return getBusiness(ctx, companyId, id);
}

export async function updateBusiness(ctx: AppContext, companyId: number, id: number, input: BusinessUpdateInput): Promise<Business> {
  if (!(await repo.findBusiness(ctx.sql, companyId, id))) throw new AppError("ERR_NOT_FOUND", "Business não encontrado");
  if (input.wabaId && (await repo.findByWaba(ctx.sql, companyId, input.wabaId, id))) throw duplicateWaba();
  await repo.updateBusiness(ctx.sql, companyId, id, sealed(ctx, companyId, id, input)).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw duplicateWaba();
    throw err;
  });
  return getBusiness(ctx, companyId, id);
}
