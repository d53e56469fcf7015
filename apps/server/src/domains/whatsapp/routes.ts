import { idParam, messageResponse, whatsapp, whatsappApiToken, whatsappInput, whatsappProviders, whatsappSession, whatsappSessionStartInput, whatsappUpdateInput } from "@atende/shared";
import { z } from "zod";
import { channels } from "../../channels/manager.js";
import type { Domain } from "../../core/domain.js";
import { hashLegacyTokens } from "./api-token.js";
import * as service from "./service.js";
import { noBody } from "../../core/openapi.js";

const admin = { gate: { minProfile: "admin" as const } };
const listQuery = z.object({ session: z.coerce.number().optional(), companyId: z.coerce.number().optional() });

export const whatsappRoutes: Domain = (api, ctx) => {
  // The drivers of connected sessions start with the server and stop with it.
  api.addHook("onReady", async () => {
    await hashLegacyTokens(ctx.sql, ctx.config.jwtSecret, api.log);
    await channels(ctx).startConnected();
  });
  api.addHook("onClose", async () => {
    await channels(ctx).stopAll();
  });

  api.get("/whatsapp", { schema: { querystring: listQuery, response: { 200: z.array(whatsapp) } } }, async (request) =>
    service.listWhatsapps(ctx, request.actor),
  );
  // a static path: wins over /whatsapp/:id
  api.get("/whatsapp/providers", { schema: { response: { 200: whatsappProviders } } }, async () => ({ providers: service.creatableProviders(ctx) }));
  api.get("/whatsapp/:id", { schema: { params: idParam, querystring: listQuery, response: { 200: whatsapp } } }, async (request) =>
    service.showWhatsapp(ctx, request.actor, request.params.id),
  );
  api.post("/whatsapp", { config: admin, schema: { body: whatsappInput, response: { 200: whatsapp } } }, async (request) =>
    service.createWhatsapp(ctx, request.actor, request.body),
  );
  api.put(
    "/whatsapp/:id",
    { config: admin, schema: { params: idParam, body: whatsappUpdateInput, response: { 200: whatsapp } } },
    async (request) => service.updateWhatsapp(ctx, request.actor, request.params.id, request.body),
  );
  // Admins only: the answer is the one time the token is shown.
  api.post("/whatsapp/:id/token", { config: { ...admin, ...noBody }, schema: { params: idParam, response: { 200: whatsappApiToken } } }, async (request) =>
    service.regenerateApiToken(ctx, request.actor, request.params.id),
  );
  api.delete("/whatsapp/:id", { config: admin, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteWhatsapp(ctx, request.actor, request.params.id);
    return { message: "Whatsapp deleted." };
  });

  // Body {phoneNumber} (Baileys): pair by code (status PAIRING with pairingCode) instead of a QR code.
  api.post(
    "/whatsappsession/:id",
    { config: admin, schema: { params: idParam, body: whatsappSessionStartInput, response: { 200: whatsappSession } } },
    async (request) => service.sessionAction(ctx, request.actor, request.params.id, "start", request.body?.phoneNumber),
  );
  api.put("/whatsappsession/:id", { config: { ...admin, ...noBody }, schema: { params: idParam, response: { 200: whatsappSession } } }, async (request) =>
    service.sessionAction(ctx, request.actor, request.params.id, "restart"),
  );
  api.delete("/whatsappsession/:id", { config: admin, schema: { params: idParam, response: { 200: whatsappSession } } }, async (request) =>
    service.sessionAction(ctx, request.actor, request.params.id, "stop"),
  );
};
