import { contact, contactInput, contactsListQuery, contactsPage, contactUpdateInput, idParam, messageResponse, pageQuery } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

export const contactsRoutes: Domain = (api, ctx) => {
  api.get("/contacts", { schema: { querystring: pageQuery, response: { 200: contactsPage } } }, async (request) =>
    service.pageContacts(ctx, request.actor, request.query.searchParam, request.query.pageNumber),
  );
  api.get(
    "/contacts/list",
    { schema: { querystring: contactsListQuery.extend({ companyId: z.coerce.number().optional() }), response: { 200: z.array(contact) } } },
    async (request) => service.listContacts(ctx, request.actor, request.query.searchParam),
  );
  api.get("/contacts/:id", { schema: { params: idParam, response: { 200: contact } } }, async (request) =>
    service.showContact(ctx, request.actor, request.params.id),
  );
  api.post("/contacts", { schema: { body: contactInput, response: { 200: contact } } }, async (request) =>
    service.createContact(ctx, request.actor, request.body),
  );
  api.put("/contacts/:id", { schema: { params: idParam, body: contactUpdateInput, response: { 200: contact } } }, async (request) =>
    service.updateContact(ctx, request.actor, request.params.id, request.body),
  );
  // contacts-page:deleteContact is held by admins (1-core §6).
  api.delete(
    "/contacts/:id",
    { config: { gate: { minProfile: "admin" } }, schema: { params: idParam, response: { 200: messageResponse } } },
    async (request) => {
      await service.deleteContact(ctx, request.actor, request.params.id);
      return { message: "Contact deleted" };
    },
  );
};
