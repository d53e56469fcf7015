import { idParam, messageSendInput, messageSendResponse, messagesPage, messagesQuery, message } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import { sendStoredMedia } from "../../core/media-type.js";
import { readMultipart, parseOrThrow } from "./multipart.js";
import { defineSendRetryJob } from "./send-retry-job.js";
import * as service from "./service.js";
import { fileAnswer } from "../../core/openapi.js";

/** A multipart field that holds JSON, or its plain text (the schema that follows decides whether that is valid). */
const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s);
    // eslint-disable-next-line no-restricted-syntax -- not JSON: the plain text goes on to the schema, which answers ERR_VALIDATION when it is wrong
  } catch {
    return s;
  }
};

const ticketIdParam = z.object({ ticketId: z.coerce.number().int().positive() });
const messageIdParam = z.object({ messageId: z.coerce.number().int().positive() });

export const messagesRoutes: Domain = (api, ctx) => {
  defineSendRetryJob(ctx);
  api.get(
    "/messages/media/:messageId",
    { schema: { params: messageIdParam, ...fileAnswer("application/octet-stream") } },
    async (request, reply) => {
      const file = await service.openMedia(ctx, request.actor, request.params.messageId);
      return sendStoredMedia(reply, file, { cacheControl: "private, max-age=3600" });
    },
  );

  api.get(
    "/messages/:ticketId",
    { schema: { params: ticketIdParam, querystring: messagesQuery, response: { 200: messagesPage } } },
    async (request) => service.listMessages(ctx, request.actor, request.params.ticketId, request.query.pageNumber),
  );

  api.post(
    "/messages/:ticketId",
    {
      config: { requestBody: { json: messageSendInput, form: { fields: messageSendInput, files: ["medias"] } } },
      schema: { params: ticketIdParam, response: { 200: messageSendResponse } },
    },
    async (request) => {
      if (request.isMultipart()) {
        const { fields, files } = await readMultipart(request);
        const input = parseOrThrow(messageSendInput, {
          body: fields.body ?? "",
          quotedMsg: fields.quotedMsg ? safeJson(fields.quotedMsg) : undefined,
          sign: fields.sign === undefined ? undefined : fields.sign !== "false",
          mediaUrl: fields.mediaUrl || undefined,
        });
        const messages = await service.sendMessage(ctx, request.actor, request.params.ticketId, {
          body: input.body,
          files: files.filter((f) => f.field === "medias" || f.field === "medias[]" || f.field === "file"),
          quotedMsgId: input.quotedMsg?.id ?? null,
          sign: input.sign,
          mediaUrl: input.mediaUrl,
        });
        return { messages };
      }
      const input = parseOrThrow(messageSendInput, request.body ?? {});
      const messages = await service.sendMessage(ctx, request.actor, request.params.ticketId, {
        body: input.body,
        files: [],
        quotedMsgId: input.quotedMsg?.id ?? null,
        sign: input.sign,
        mediaUrl: input.mediaUrl,
      });
      return { messages };
    },
  );

  api.delete("/messages/:id", { schema: { params: idParam, response: { 200: message } } }, async (request) =>
    service.deleteMessage(ctx, request.actor, request.params.id),
  );
};
