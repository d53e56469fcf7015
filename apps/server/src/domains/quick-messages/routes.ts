import { idParam, messageResponse, quickMessage, quickMessageInput, quickMessagesPage, quickMessagesQuery, quickMessageUpdateInput } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import { sendStoredMedia } from "../../core/media-type.js";
import { readMultipart } from "../messages/multipart.js";
import * as service from "./service.js";
import { fileAnswer, upload } from "../../core/openapi.js";

export const quickMessagesRoutes: Domain = (api, ctx) => {
  api.get("/quick-messages", { schema: { querystring: quickMessagesQuery, response: { 200: quickMessagesPage } } }, async (request) =>
    service.pageQuickMessages(ctx, request.actor, request.query.searchParam, request.query.pageNumber),
  );
  api.get(
    "/quick-messages/list",
    { schema: { querystring: z.object({ companyId: z.coerce.number().optional(), userId: z.coerce.number().optional() }), response: { 200: z.array(quickMessage) } } },
    async (request) => service.listQuickMessages(ctx, request.actor),
  );
  api.get("/quick-messages/:id", { schema: { params: idParam, response: { 200: quickMessage } } }, async (request) =>
    service.showQuickMessage(ctx, request.actor, request.params.id),
  );
  api.get("/quick-messages/:id/media", { schema: { params: idParam, ...fileAnswer("application/octet-stream") } }, async (request, reply) => {
    const file = await service.openMedia(ctx, request.actor, request.params.id);
    return sendStoredMedia(reply, file);
  });
  api.post("/quick-messages", { schema: { body: quickMessageInput, response: { 200: quickMessage } } }, async (request) =>
    service.createQuickMessage(ctx, request.actor, request.body),
  );
  api.put(
    "/quick-messages/:id",
    { schema: { params: idParam, body: quickMessageUpdateInput, response: { 200: quickMessage } } },
    async (request) => service.updateQuickMessage(ctx, request.actor, request.params.id, request.body),
  );
  api.delete("/quick-messages/:id", { schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteQuickMessage(ctx, request.actor, request.params.id);
    return { message: "Quick message deleted" };
  });
  api.post("/quick-messages/:id/media-upload", { config: upload(), schema: { params: idParam, response: { 200: quickMessage } } }, async (request) => {
    const { files } = await readMultipart(request);
    return service.uploadMedia(ctx, request.actor, request.params.id, files.find((f) => f.field === "file") ?? files[0]);
  });
  api.delete("/quick-messages/:id/media-upload", { schema: { params: idParam, response: { 200: quickMessage } } }, async (request) =>
    service.deleteMedia(ctx, request.actor, request.params.id),
  );
};
