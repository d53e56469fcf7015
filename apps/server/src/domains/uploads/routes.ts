import { idParam, uploadedFile } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { sendStoredMedia } from "../../core/media-type.js";
import { fileAnswer, upload } from "../../core/openapi.js";
import { readMultipart } from "../messages/multipart.js";
import * as service from "./service.js";

const admin = { gate: { minProfile: "admin" as const } };

/** Files of the queue dialog (2-administration §7: POST /upload, multipart `file`): administrators upload, the company reads. */
export const uploadsRoutes: Domain = (api, ctx) => {
  api.post("/upload", { config: { ...admin, ...upload() }, schema: { response: { 200: uploadedFile } } }, async (request) => {
    const { files } = await readMultipart(request);
    return service.saveUpload(ctx, request.actor, files.find((f) => f.field === "file"));
  });
  api.get("/upload/:id", { schema: { params: idParam, ...fileAnswer("application/octet-stream") } }, async (request, reply) =>
    sendStoredMedia(reply, await service.openUpload(ctx, request.actor, request.params.id)),
  );
};
