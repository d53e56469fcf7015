import {
  idParam,
  message,
  officialTemplateSendInput,
  officialWhatsapp,
  officialWhatsappBulkInput,
  officialWhatsappBulkResult,
  officialWhatsappQuery,
  officialWhatsappUpdateInput,
  whatsappTemplate,
} from "@atende/shared";
import { z } from "zod";
import "../../channels/cloud-api/index.js";
import type { Domain } from "../../core/domain.js";
import { listTicketTemplates, sendTemplateOnTicket } from "./send-template.js";
import * as service from "./service.js";

const supervisor = { gate: { minProfile: "supervisor" as const } };
/** official-connections-page:editConnection (1-core §6). */
const editor = { gate: { minProfile: "admin" as const } };
const ticketIdParam = z.object({ ticketId: z.coerce.number().int().positive() });
const templatesQuery = z.object({ businessId: z.coerce.number().int().positive().optional() });

/** Official connections (phone numbers of the Cloud API): the official connections page and template sends. */
export const officialWhatsappRoutes: Domain = (api, ctx) => {
  api.get("/officialWhatsapp/", { config: supervisor, schema: { querystring: officialWhatsappQuery, response: { 200: z.array(officialWhatsapp) } } }, async (request) =>
    service.listOfficialNumbers(ctx, request.actor, request.query),
  );
  api.get("/officialWhatsapp/templates", { config: supervisor, schema: { querystring: templatesQuery, response: { 200: z.array(whatsappTemplate) } } }, async (request) =>
    service.listTemplates(ctx, request.actor, request.query.businessId),
  );
  api.put("/officialWhatsapp/bulk", { config: editor, schema: { body: officialWhatsappBulkInput, response: { 200: officialWhatsappBulkResult } } }, async (request) =>
    service.bulkUpdate(ctx, request.actor, request.body),
  );
  api.get("/officialWhatsapp/:id", { config: supervisor, schema: { params: idParam, response: { 200: officialWhatsapp } } }, async (request) =>
    service.getOfficialNumber(ctx, request.actor, request.params.id),
  );
  api.put(
    "/officialWhatsapp/:id",
    { config: editor, schema: { params: idParam, body: officialWhatsappUpdateInput, response: { 200: officialWhatsapp } } },
    async (request) => service.updateOfficialNumber(ctx, request.actor, request.params.id, request.body),
  );
  // Any agent who may write on the ticket (the same rules as POST /messages/{ticketId}).
  api.get(
    "/officialWhatsapp/ticket/:ticketId/templates",
    { schema: { params: ticketIdParam, response: { 200: z.array(whatsappTemplate) } } },
    async (request) => listTicketTemplates(ctx, request.actor, request.params.ticketId),
  );
  api.post(
    "/officialWhatsapp/ticket/:ticketId/template",
    { schema: { params: ticketIdParam, body: officialTemplateSendInput, response: { 200: message } } },
    async (request) => sendTemplateOnTicket(ctx, request.actor, request.params.ticketId, request.body),
  );
};
