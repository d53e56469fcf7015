import { chat, chatInput, chatMessage, chatMessageInput, chatMessagesPage, chatRefParam, chatsPage, gateForPath, idParam, messageResponse, pageQuery } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

/** The plan's useInternalChat, as the menu and the web guard read it (the `/chats` gate). */
const config = { gate: gateForPath("/chats") };

/** Internal chat between users of a company (spec 3 §7 "Chats"; 1-core §7). Every route: members only. */
export const chatsRoutes: Domain = (api, ctx) => {
  api.get("/chats", { config, schema: { querystring: pageQuery, response: { 200: chatsPage } } }, (request) => service.pageChats(ctx, request.actor, request.query));
  api.get("/chats/:id", { config, schema: { params: chatRefParam, response: { 200: chat } } }, (request) => service.showChat(ctx, request.actor, request.params.id));
  api.post("/chats", { config, schema: { body: chatInput, response: { 200: chat } } }, (request) => service.createChat(ctx, request.actor, request.body));
  api.put("/chats/:id", { config, schema: { params: idParam, body: chatInput, response: { 200: chat } } }, (request) =>
    service.updateChat(ctx, request.actor, request.params.id, request.body),
  );
  api.delete("/chats/:id", { config, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteChat(ctx, request.actor, request.params.id);
    return { message: "Chat deleted" };
  });
  api.get(
    "/chats/:id/messages",
    { config, schema: { params: idParam, querystring: pageQuery.pick({ pageNumber: true }), response: { 200: chatMessagesPage } } },
    (request) => service.pageMessages(ctx, request.actor, request.params.id, request.query.pageNumber),
  );
  api.post("/chats/:id/messages", { config, schema: { params: idParam, body: chatMessageInput, response: { 200: chatMessage } } }, (request) =>
    service.sendMessage(ctx, request.actor, request.params.id, request.body.message),
  );
  api.post(
    "/chats/:id/read",
    { config, schema: { params: idParam, body: z.object({ userId: z.coerce.number().int().positive().optional() }).optional(), response: { 200: chat } } },
    (request) => service.markRead(ctx, request.actor, request.params.id),
  );
};
