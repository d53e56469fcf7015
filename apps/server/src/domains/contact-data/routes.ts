import { contactErasure, contactExport, idParam } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { noBody } from "../../core/openapi.js";
import * as service from "./service.js";

const admin = { gate: { minProfile: "admin" as const } };

/**
 * LGPD requests about one contact (contacts-page:personalData, administrators): the export of
 * everything stored about it, and the erasure of its personal data. Both are written to the audit log.
 */
export const contactDataRoutes: Domain = (api, ctx) => {
  api.get("/contacts/:id/export", { config: admin, schema: { params: idParam, response: { 200: contactExport } } }, async (request, reply) => {
    const data = await service.exportContact(ctx, request.actor, request.params.id, request.ip);
    void reply.header("content-disposition", `attachment; filename="contato-${request.params.id}.json"`).header("cache-control", "no-store");
    return data;
  });
  api.post("/contacts/:id/erase", { config: { ...admin, ...noBody }, schema: { params: idParam, response: { 200: contactErasure } } }, async (request) =>
    service.eraseContact(ctx, request.actor, request.params.id, request.ip),
  );
};
