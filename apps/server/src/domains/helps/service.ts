import { LIMITS, type Help, type HelpInput, type HelpsPage } from "@atende/shared";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { presentHelp } from "./presenter.js";
import * as repo from "./repository.js";

const notFound = () => new AppError("ERR_NOT_FOUND", "Ajuda não encontrada");

export async function listHelps(ctx: AppContext, q: { searchParam: string; pageNumber: number }): Promise<HelpsPage> {
  const limit = LIMITS.listPageSize;
  const offset = (q.pageNumber - 1) * limit;
  const { rows, count } = await repo.listHelps(ctx.sql, { search: q.searchParam.trim(), limit, offset });
  return { records: rows.map(presentHelp), count, hasMore: count > offset + rows.length };
}

export async function allHelps(ctx: AppContext): Promise<Help[]> {
  return (await repo.allHelps(ctx.sql)).map(presentHelp);
}

export async function showHelp(ctx: AppContext, id: number): Promise<Help> {
  const row = await repo.findHelp(ctx.sql, id);
  if (!row) throw notFound();
  return presentHelp(row);
}

export async function createHelp(ctx: AppContext, input: HelpInput): Promise<Help> {
  return presentHelp(await repo.insertHelp(ctx.sql, input));
}

export async function updateHelp(ctx: AppContext, id: number, input: HelpInput): Promise<Help> {
  const row = await repo.updateHelp(ctx.sql, id, input);
  if (!row) throw notFound();
  return presentHelp(row);
}

export async function deleteHelp(ctx: AppContext, id: number): Promise<void> {
  if (!(await repo.deleteHelp(ctx.sql, id))) throw notFound();
}
