import { channel, isSettingKey, settingValue, type Setting } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { withSettingDefaults } from "../auth/presenter.js";
import * as repo from "./repository.js";

export async function listSettings(ctx: AppContext, actor: RequestActor): Promise<Setting[]> {
  return withSettingDefaults(await repo.listSettings(ctx.sql, actor.companyId));
}

export async function updateSetting(ctx: AppContext, actor: RequestActor, key: string, value: string): Promise<Setting> {
  if (!isSettingKey(key)) throw new AppError("ERR_NO_SETTING_FOUND", `Configuração desconhecida: ${key}`);
  const checked = settingValue(key, value);
  if ("refusal" in checked) throw new AppError("ERR_VALIDATION", `value: ${checked.refusal}`, { fields: { value: checked.refusal } });
  const stored = checked.value;
  await ctx.sql.tx(async (sql) => {
    await repo.upsertSetting(sql, actor.companyId, key, stored);
    if (key === "campaignsEnabled") await repo.setCompanyCampaignsEnabled(sql, actor.companyId, stored === "true");
  });
  const setting = { key, value: stored };
  ctx.realtime.emit(rooms.company(actor.companyId), channel.settings(actor.companyId), { action: "update", setting });
  return setting;
}
