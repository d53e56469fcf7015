import { setting, settingKeyParam, settingUpdate } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as settings from "./service.js";

export const settingsRoutes: Domain = (api, ctx) => {
  api.get("/settings", { schema: { response: { 200: z.array(setting) } } }, (request) => settings.listSettings(ctx, request.actor));

  api.put(
    "/settings/:key",
    { config: { gate: { minProfile: "admin" } }, schema: { params: settingKeyParam, body: settingUpdate, response: { 200: setting } } },
    (request) => settings.updateSetting(ctx, request.actor, request.params.key, request.body.value),
  );
};
