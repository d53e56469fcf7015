import { announcement, announcementInput, announcementsPage, announcementsQuery, gateForPath, idParam, messageResponse } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { sendStoredMedia } from "../../core/media-type.js";
import { readMultipart } from "../messages/multipart.js";
import * as service from "./service.js";
import { fileAnswer, noBody, upload } from "../../core/openapi.js";

/** Writing needs the super flag: the page's own gate (`/announcements`), as the menu and the web guard use it. */
const manage = { gate: gateForPath("/announcements") };

/** Announcements (spec 3 §2/§7, 1-core §2): super administrators write them, every signed-in user reads the active ones. */
export const announcementsRoutes: Domain = (api, ctx) => {
  api.get("/announcements", { schema: { querystring: announcementsQuery, response: { 200: announcementsPage } } }, (request) =>
    service.pageAnnouncements(ctx, request.actor, request.query),
  );
  api.post("/announcements/seen", { config: noBody, schema: { response: { 200: messageResponse } } }, async (request) => {
    await service.markSeen(ctx, request.actor);
    return { message: "Announcements seen" };
  });
  api.get("/announcements/:id", { schema: { params: idParam, response: { 200: announcement } } }, (request) =>
    service.showAnnouncement(ctx, request.actor, request.params.id),
  );
  api.get("/announcements/:id/media", { schema: { params: idParam, ...fileAnswer("image/*") } }, async (request, reply) =>
    sendStoredMedia(reply, await service.openMedia(ctx, request.actor, request.params.id), { cacheControl: "private, max-age=3600" }),
  );
  api.post("/announcements", { config: manage, schema: { body: announcementInput, response: { 200: announcement } } }, (request) =>
    service.createAnnouncement(ctx, request.actor, request.body),
  );
  api.put("/announcements/:id", { config: manage, schema: { params: idParam, body: announcementInput, response: { 200: announcement } } }, (request) =>
    service.updateAnnouncement(ctx, request.params.id, request.body),
  );
  api.delete("/announcements/:id", { config: manage, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteAnnouncement(ctx, request.params.id);
    return { message: "Announcement deleted" };
  });
  api.post("/announcements/:id/media-upload", { config: { ...manage, ...upload() }, schema: { params: idParam, response: { 200: announcement } } }, async (request) => {
    const { files } = await readMultipart(request);
    return service.uploadMedia(ctx, request.actor, request.params.id, files.find((f) => f.field === "file") ?? files[0]);
  });
  api.delete("/announcements/:id/media-upload", { config: manage, schema: { params: idParam, response: { 200: announcement } } }, (request) =>
    service.deleteMedia(ctx, request.params.id),
  );
};
