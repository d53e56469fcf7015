import { EXTERNAL_API_RATE_PER_MINUTE, externalSendInput, externalSendResponse } from "@atende/shared";
import type { FastifyRequest } from "fastify";
import type { Domain } from "../../core/domain.js";
import { bearerToken } from "../../core/http.js";
import { parseOrThrow, readMultipart } from "../messages/multipart.js";
import { authenticate, sendExternal, tokenDigest } from "./service.js";

/** Rate-limit key: the token's digest (never the token itself), or the address without one. */
const perToken = (request: FastifyRequest) => {
  const token = bearerToken(request);
  return token ? `api:${tokenDigest(token).toString("base64url")}` : `api-ip:${request.ip}`;
};

/**
 * The external messages API (2-administration, Messages API page): systems outside the app send
 * WhatsApp messages through a connection, authenticated by that connection's token.
 */
export const externalApiRoutes: Domain = (api, ctx) => {
  api.post(
    "/messages/send",
    {
      config: { public: true, rateLimit: { max: EXTERNAL_API_RATE_PER_MINUTE, timeWindow: "1 minute", keyGenerator: perToken } },
      schema: { response: { 200: externalSendResponse } },
    },
    async (request) => {
      const conn = await authenticate(ctx, bearerToken(request));
      if (request.isMultipart()) {
        const { fields, files } = await readMultipart(request);
        const input = parseOrThrow(externalSendInput, { number: fields.number, body: fields.body ?? "" });
        const medias = files.filter((f) => f.field === "medias" || f.field === "medias[]");
        return sendExternal(ctx, conn, { number: input.number, body: input.body, files: medias });
      }
      const input = parseOrThrow(externalSendInput, request.body ?? {});
      return sendExternal(ctx, conn, { number: input.number, body: input.body, files: [] });
    },
  );
};
