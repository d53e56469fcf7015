import { gateForPath, sandboxInboundInput, sandboxOutbox, sandboxOutboxQuery, whatsappSession } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";
import { noBody } from "../../core/openapi.js";

const params = z.object({ whatsappId: z.coerce.number().int().positive() });

/**
 * The sandbox phone stands for customers and for the WhatsApp app that scans the QR code: it can
 * write into any conversation of the connection, so only the company's admins use it.
 */
const admin = { gate: gateForPath("/sandbox") };

export const sandboxRoutes: Domain = (api, ctx) => {
  api.post("/sandbox/:whatsappId/scan", { config: { ...admin, ...noBody }, schema: { params, response: { 200: whatsappSession } } }, async (request) =>
    service.scan(ctx, request.actor, request.params.whatsappId),
  );

  api.post(
    "/sandbox/:whatsappId/inbound",
    {
      config: admin,
      // base64 media of up to 10 MB grows by a third
      bodyLimit: 15 * 1024 * 1024,
      schema: {
        params,
        body: sandboxInboundInput,
        response: { 200: z.object({ messageId: z.number(), ticketId: z.number(), contactId: z.number(), duplicate: z.boolean() }) },
      },
    },
    async (request) => service.inbound(ctx, request.actor, request.params.whatsappId, request.body),
  );

  api.get("/sandbox/:whatsappId/outbox", { config: admin, schema: { params, querystring: sandboxOutboxQuery, response: { 200: sandboxOutbox } } }, async (request) => ({
    records: await service.outbox(ctx, request.actor, request.params.whatsappId, request.query),
  }));

  api.post(
    "/sandbox/:whatsappId/read",
    { config: admin, schema: { params, body: z.object({ number: z.string().max(50).optional() }).optional(), response: { 200: z.object({ updated: z.number() }) } } },
    async (request) => ({ updated: await service.phoneRead(ctx, request.actor, request.params.whatsappId, request.body?.number) }),
  );
};
