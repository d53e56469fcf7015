import { gateForPath, idParam, messageResponse, prompt, promptInput, promptsList } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { definePromptJob } from "./runtime.js";
import * as service from "./service.js";

/** Super users of a company whose plan has useOpenAi: the page's own gate (`/prompts`), as the menu and the web guard read it. */
const config = { gate: gateForPath("/prompts") };

/** AI prompts (spec 3 §7): GET/POST /prompt, GET/PUT/DELETE /prompt/{id}; the answering job (runtime.ts). */
export const promptsRoutes: Domain = (api, ctx) => {
  definePromptJob(ctx);
  api.get("/prompt", { config, schema: { response: { 200: promptsList } } }, (request) => service.listPrompts(ctx, request.actor.companyId));
  api.get("/prompt/:id", { config, schema: { params: idParam, response: { 200: prompt } } }, (request) =>
    service.showPrompt(ctx, request.actor.companyId, request.params.id),
  );
  api.post("/prompt", { config, schema: { body: promptInput, response: { 200: prompt } } }, (request) =>
    service.createPrompt(ctx, request.actor.companyId, request.body),
  );
  api.put("/prompt/:id", { config, schema: { params: idParam, body: promptInput, response: { 200: prompt } } }, (request) =>
    service.updatePrompt(ctx, request.actor.companyId, request.params.id, request.body),
  );
  api.delete("/prompt/:id", { config, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deletePrompt(ctx, request.actor.companyId, request.params.id);
    return { message: "Prompt deleted" };
  });
};
