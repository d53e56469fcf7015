import {
  idParam,
  messageResponse,
  ticket,
  ticketCreateInput,
  ticketsPage,
  ticketsQuery,
  ticketSyncQuery,
  ticketSyncResponse,
  ticketUpdateInput,
  ticketUpdateResponse,
} from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import { parseOrThrow, readMultipart } from "../messages/multipart.js";
import { listTickets } from "./list-tickets.js";
import * as service from "./service.js";
import { updateTicket } from "./update-ticket.js";
import { noBody } from "../../core/openapi.js";

export const ticketsRoutes: Domain = (api, ctx) => {
  api.get("/tickets", { schema: { querystring: ticketsQuery, response: { 200: ticketsPage } } }, async (request) =>
    listTickets(ctx, request.actor, request.query),
  );

  api.get("/tickets/sync", { schema: { querystring: ticketSyncQuery, response: { 200: ticketSyncResponse } } }, async (request) =>
    service.syncTickets(ctx, request.actor, request.query),
  );

  api.get(
    "/tickets/:idOrUuid",
    { schema: { params: z.object({ idOrUuid: z.string().max(64) }), response: { 200: ticket } } },
    async (request) => service.showTicket(ctx, request.actor, request.params.idOrUuid),
  );

  api.post("/tickets", { config: { requestBody: { json: ticketCreateInput, form: { fields: ticketCreateInput, files: ["file"] } } }, schema: { response: { 200: ticket } } }, async (request) => {
    if (request.isMultipart()) {
      const { fields, files } = await readMultipart(request);
      const input = parseOrThrow(ticketCreateInput, {
        ...fields,
        userId: fields.userId === "" || fields.userId === "null" ? undefined : fields.userId,
        queueId: fields.queueId === "" || fields.queueId === "null" ? undefined : fields.queueId,
        contactId: fields.contactId || undefined,
        whatsappId: fields.whatsappId || undefined,
      });
      const file = files.find((f) => f.field === "file" || f.field === "medias");
      return service.createTicket(ctx, request.actor, input, file);
    }
    const input = parseOrThrow(ticketCreateInput, request.body ?? {});
    return service.createTicket(ctx, request.actor, input);
  });

  api.put(
    "/tickets/:id",
    { schema: { params: idParam, body: ticketUpdateInput, response: { 200: ticketUpdateResponse } } },
    async (request) => updateTicket(ctx, request.actor, request.params.id, request.body),
  );

  api.delete(
    "/tickets/:id",
    { config: { gate: { minProfile: "admin" } }, schema: { params: idParam, response: { 200: messageResponse } } },
    async (request) => {
      await service.deleteTicket(ctx, request.actor, request.params.id);
      return { message: "ticket deleted" };
    },
  );

  api.post("/tickets/:id/read", { config: noBody, schema: { params: idParam, response: { 200: ticket } } }, async (request) =>
    service.markTicketRead(ctx, request.actor, request.params.id),
  );
};
