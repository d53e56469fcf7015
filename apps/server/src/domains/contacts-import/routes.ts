import { CONTACT_IMPORT_MESSAGES, contactImport, contactImportIdParam, LIMITS } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { AppError } from "../../core/errors.js";
import { exportContacts } from "./export.js";
import * as imports from "./service.js";
import { fileAnswer, upload } from "../../core/openapi.js";

const noFile = () => new AppError("ERR_VALIDATION", CONTACT_IMPORT_MESSAGES.noFile, { fields: { file: CONTACT_IMPORT_MESSAGES.noFile } });

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
    if (!request.isMultipart()) throw noFile();
    let file;
    let data: Buffer;
    try {
      file = await request.file({ limits: { fileSize: LIMITS.importMaxBytes, files: 1 } });
      if (!file) throw noFile();
      data = await file.toBuffer();
    } catch (err) {
      if (err instanceof AppError) throw err;
      const code = (err as { code?: string }).code;
      if (code === "FST_REQ_FILE_TOO_LARGE" || (err as { statusCode?: number }).statusCode === 413) {
        throw new AppError("ERR_PAYLOAD_TOO_LARGE", CONTACT_IMPORT_MESSAGES.tooBig, { fields: { file: CONTACT_IMPORT_MESSAGES.tooBig } });
      }
      throw err;
    }
    const { async, result } = await imports.startImport(ctx, request.actor.companyId, request.actor.id, { fileName: file.filename, data });
    return reply.status(async ? 202 : 200).send(result);
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
