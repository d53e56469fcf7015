import { gateForPath, idParam, keyword, keywordCreateInput, keywordUpdateInput, messageResponse } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

/** Supervisors and above, as the menu and the web guard read it (the `/keywords` gate). */
const config = { gate: gateForPath("/keywords") };

/** The company's blocked words (spec 3 §7 keyword calls): GET/POST /keyword, PUT/DELETE /keyword/{id}. */
export const keywordsRoutes: Domain = (api, ctx) => {
  api.get("/keyword", { config, schema: { response: { 200: z.array(keyword) } } }, (request) => service.listKeywords(ctx, request.actor.companyId));
  api.post("/keyword", { config, schema: { body: keywordCreateInput, response: { 200: z.array(keyword) } } }, (request) =>
    service.addKeywords(ctx, request.actor.companyId, request.body.word),
  );
  api.put("/keyword/:id", { config, schema: { params: idParam, body: keywordUpdateInput, response: { 200: keyword } } }, (request) =>
    service.updateKeyword(ctx, request.actor.companyId, request.params.id, request.body.word),
  );
  api.delete("/keyword/:id", { config, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteKeyword(ctx, request.actor.companyId, request.params.id);
    return { message: "Keyword deleted" };
  });
};
