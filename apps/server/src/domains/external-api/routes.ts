import { externalSendInput, externalSendResponse } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { parseOrThrow, readMultipart } from "../messages/multipart.js";
import { externalCaller, externalRouteConfig } from "./auth.js";
import { sendExternal } from "./service.js";

/**
 * The external messages API (2-administration, Messages API page): systems outside the app send
 * WhatsApp messages through a connection, authenticated by that connection's token. The same token
 * creates and triggers SMS and e-mail campaigns (source API): those routes live with their campaigns
 * (`/messages/sms-campaigns`, `/messages/email-campaigns`), through `auth.ts`.
 */
export const externalApiRoutes: Domain = (api, ctx) => {
  const requestBody = { json: externalSendInput, form: { fields: externalSendInput, files: ["medias"] } };
  api.post("/messages/send", { config: { ...externalRouteConfig(ctx), requestBody }, schema: { response: { 200: externalSendResponse } } }, async (request) => {
    const conn = await externalCaller(ctx, request);
    if (request.isMultipart()) {
      const { fields, files } = await readMultipart(request);
      const input = parseOrThrow(externalSendInput, { number: fields.number, body: fields.body ?? "" });
      const medias = files.filter((f) => f.field === "medias" || f.field === "medias[]");
      return sendExternal(ctx, conn, { number: input.number, body: input.body, files: medias });
    }
    const input = parseOrThrow(externalSendInput, request.body ?? {});
    return sendExternal(ctx, conn, { number: input.number, body: input.body, files: [] });
  });
};
