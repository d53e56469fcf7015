import { contactErasure, idParam } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { fileAnswer, noBody } from "../../core/openapi.js";
import * as service from "./service.js";

const admin = { gate: { minProfile: "admin" as const } };

/**
 * LGPD requests about one contact (contacts-page:personalData, administrators): the export of
 * everything stored about it (a ZIP: a readable page and its JSON), and the erasure of its personal data. Both are written to the audit log.
 */
export const contactDataRoutes: Domain = (api, ctx) => {
  api.get("/contacts/:id/export", { config: admin, schema: { params: idParam, ...fileAnswer("application/zip") } }, async (request, reply) => {
    const file = await service.exportContact(ctx, request.actor, request.params.id, request.ip);
    return reply
      .type("application/zip")
      .header("content-disposition", `attachment; filename="dados-pessoais-contato-${request.params.id}.zip"`)
      .header("cache-control", "no-store")
      .send(file);
  });
  api.post("/contacts/:id/erase", { config: { ...admin, ...noBody }, schema: { params: idParam, response: { 200: contactErasure } } }, async (request) =>
    service.eraseContact(ctx, request.actor, request.params.id, request.ip),
  );
};
