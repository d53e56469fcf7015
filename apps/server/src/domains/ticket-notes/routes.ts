import { idParam, messageResponse, ticketNote, ticketNoteInput, ticketNotesQuery } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as service from "./service.js";

export const ticketNotesRoutes: Domain = (api, ctx) => {
  api.post("/ticket-notes", { schema: { body: ticketNoteInput, response: { 200: ticketNote } } }, async (request) =>
    service.createNote(ctx, request.actor, request.body),
  );
  api.get("/ticket-notes/list", { schema: { querystring: ticketNotesQuery, response: { 200: z.array(ticketNote) } } }, async (request) =>
    service.listNotes(ctx, request.actor, request.query),
  );
  api.delete("/ticket-notes/:id", { schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteNote(ctx, request.actor, request.params.id);
    return { message: "Observação excluída com sucesso!" };
  });
};
