import { EXTERNAL_API_BAD_TOKENS_PER_MINUTE, EXTERNAL_API_RATE_PER_MINUTE, externalSendInput, externalSendResponse } from "@atende/shared";
import type { FastifyRequest } from "fastify";
import type { Domain } from "../../core/domain.js";
import { AppError } from "../../core/errors.js";
import { bearerToken } from "../../core/http.js";
import { parseOrThrow, readMultipart } from "../messages/multipart.js";
import { apiTokenHash } from "../whatsapp/api-token.js";
import { BadTokenLimit } from "./bad-token-limit.js";
import { authenticate, sendExternal, type ApiConnection } from "./service.js";

/**
 * The external messages API (2-administration, Messages API page): systems outside the app send
 * WhatsApp messages through a connection, authenticated by that connection's token.
 */
export const externalApiRoutes: Domain = (api, ctx) => {
  /** Rate-limit key: the token's keyed hash (never the token itself), or the address without one. */
  const perToken = (request: FastifyRequest) => {
    const token = bearerToken(request);
    return token ? `api:${apiTokenHash(ctx.config.jwtSecret, token).toString("base64url")}` : `api-ip:${request.ip}`;
  };
  const badTokens = new BadTokenLimit(EXTERNAL_API_BAD_TOKENS_PER_MINUTE, 60_000);

  /** The token's connection; a wrong or missing token counts against the caller's address. */
  async function authenticated(request: FastifyRequest): Promise<ApiConnection> {
    if (badTokens.blocked(request.ip)) throw new AppError("ERR_TOO_MANY_REQUESTS", "Muitas tentativas. Aguarde e tente novamente.");
    try {
      return await authenticate(ctx, bearerToken(request));
    } catch (err) {
      if (err instanceof AppError && err.code === "ERR_SESSION_EXPIRED") {
        badTokens.fail(request.ip);
        request.log.warn({ address: request.ip }, "messages API: wrong or missing token");
      }
      throw err;
    }
  }

  api.post(
    "/messages/send",
    {
      config: {
        public: true,
        rateLimit: { max: EXTERNAL_API_RATE_PER_MINUTE, timeWindow: "1 minute", keyGenerator: perToken },
        requestBody: { json: externalSendInput, form: { fields: externalSendInput, files: ["medias"] } },
      },
      schema: { response: { 200: externalSendResponse } },
    },
    async (request) => {
      const conn = await authenticated(request);
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
