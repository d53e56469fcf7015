import { rm } from "node:fs/promises";
import { contactImport, contactImportIdParam } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { exportContacts } from "./export.js";
import * as imports from "./service.js";
import { receiveImportUpload } from "./upload.js";
import { fileAnswer, upload } from "../../core/openapi.js";

/** Contacts CSV import and export (2-administration §5, §7), for every user of the company. */
export const contactsImportRoutes: Domain = (api, ctx) => {
  ctx.jobs.define({
    name: imports.IMPORT_JOB,
    schema: imports.importJobPayload,
    retryLimit: 2,
    handler: (payload) => imports.runImportJob(ctx, payload),
    onGiveUp: (payload) => imports.importGaveUp(ctx, payload),
  });

  api.post("/contacts/import", { config: upload(), schema: { response: { 200: contactImport, 202: contactImport } } }, async (request, reply) => {
    const { companyId, id: userId } = request.actor;
    // streamed to disk, never held whole (config.contactsImportMaxBytes: the spec's 5 MB by default)
    const file = await receiveImportUpload(request, ctx.config.dataDir, companyId, ctx.config.contactsImportMaxBytes);
    try {
      const { async, result } = await imports.startImport(ctx, companyId, userId, file);
      return await reply.status(async ? 202 : 200).send(result);
    } finally {
      // a queued import's file was moved to its place; a small or refused one's goes now
      await rm(file.path, { force: true }).catch((err: unknown) => request.log.error({ err, file: file.path }, "could not remove a contacts upload"));
    }
  });

  api.get("/contacts/import/:jobId", { schema: { params: contactImportIdParam, response: { 200: contactImport } } }, async (request) =>
    imports.getImport(ctx, request.actor.companyId, request.params.jobId),
  );

  api.get("/contacts/export", { schema: fileAnswer("text/csv") }, async (request, reply) => {
    const stamp = new Date().toISOString().slice(0, 10);
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="contatos-${stamp}.csv"`)
      .header("cache-control", "no-store")
      .send(exportContacts(ctx.sql, request.actor.companyId));
  });
};
