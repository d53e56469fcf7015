import { idParam, messageResponse, pageQuery, tag, tagInput, tagsKanban, tagsPage, tagSyncInput, tagUpdateInput, ticket } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

const admin = { gate: { minProfile: "admin" as const } };

/** Tags: any user reads them and may create one from the ticket's tag picker; editing and deleting are for admins. */
export const tagsRoutes: Domain = (api, ctx) => {
  api.get("/tags", { schema: { querystring: pageQuery, response: { 200: tagsPage } } }, async (request) =>
    service.pageTags(ctx, request.actor, request.query.searchParam, request.query.pageNumber),
  );
  api.get("/tags/list", { schema: { response: { 200: z.array(tag) } } }, async (request) => service.listTags(ctx, request.actor));
  api.get("/tags/kanban", { schema: { response: { 200: tagsKanban } } }, async (request) => ({
    lista: await service.listTags(ctx, request.actor, true),
  }));
  api.get("/tags/:id", { schema: { params: idParam, response: { 200: tag } } }, async (request) =>
    service.showTag(ctx, request.actor, request.params.id),
  );
  api.post("/tags", { schema: { body: tagInput, response: { 200: tag } } }, async (request) => service.createTag(ctx, request.actor, request.body));
  api.post("/tags/sync", { schema: { body: tagSyncInput, response: { 200: ticket } } }, async (request) =>
    service.syncTicketTags(
      ctx,
      request.actor,
      request.body.ticketId,
      request.body.tags.map((t) => t.id),
    ),
  );
  api.put("/tags/:id", { config: admin, schema: { params: idParam, body: tagUpdateInput, response: { 200: tag } } }, async (request) =>
    service.updateTag(ctx, request.actor, request.params.id, request.body),
  );
  api.delete("/tags/:id", { config: admin, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteTag(ctx, request.actor, request.params.id);
    return { message: "Tag deleted" };
  });
};
