import { kanbanQuery, kanbanResponse, ticketTagParams, ticketTagResponse, ticketTagsParams } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import * as kanban from "./service.js";
import { noBody } from "../../core/openapi.js";

const gate = { gate: { planFlag: "useKanban" as const } };

/** Kanban (2-administration §7), behind the plan's useKanban flag. A move is DELETE then PUT. */
export const kanbanRoutes: Domain = (api, ctx) => {
  api.get("/ticket/kanban", { config: gate, schema: { querystring: kanbanQuery, response: { 200: kanbanResponse } } }, async (request) =>
    kanban.listKanban(ctx, request.actor, request.query.queueIds),
  );

  api.put(
    "/ticket-tags/:ticketId/:tagId",
    { config: { ...gate, ...noBody }, schema: { params: ticketTagParams, response: { 200: ticketTagResponse } } },
    async (request) => kanban.addTag(ctx, request.actor, request.params.ticketId, request.params.tagId),
  );

  api.delete(
    "/ticket-tags/:ticketId",
    { config: gate, schema: { params: ticketTagsParams, response: { 200: ticketTagResponse } } },
    async (request) => kanban.removeKanbanTags(ctx, request.actor, request.params.ticketId),
  );
};
