import { forgetPasswordParams, messageResponse, resetPasswordParams } from "@atende/shared";
import { attemptLimits, emailOf } from "../../core/attempt-limits.js";
import type { Domain } from "../../core/domain.js";
import { createMailer } from "../../core/mailer.js";
import * as reset from "./service.js";
import { noBody } from "../../core/openapi.js";

/** Password reset (3-bulk §2, §4, §7): public, rate limited per address. */
export const passwordResetRoutes: Domain = (api, ctx) => {
  const mailer = createMailer(ctx.config, api.log, ctx.sql);

  api.post(
    "/forgetpassword/:email",
    {
      config: { public: true, ...noBody },
      preHandler: attemptLimits(api, [
        { name: "forget-address", max: 5, timeWindow: "1 minute", key: (req) => req.ip },
        { name: "forget-email", max: 5, timeWindow: "1 minute", key: (req) => emailOf(req.params) },
      ]),
      schema: { params: forgetPasswordParams, response: { 200: messageResponse } },
    },
    async (request) => {
      await reset.requestReset(ctx, mailer, request.log, request.params.email);
      return { message: "Enviamos um código para o seu e-mail" };
    },
  );

  api.post(
    "/resetpasswords/:email/:token/:newPassword",
    {
      config: { public: true, ...noBody },
      // The code burns after five wrong tries; these stop the flood before any hashing.
      preHandler: attemptLimits(api, [
        { name: "reset-address", max: 10, timeWindow: "1 minute", key: (req) => req.ip },
        { name: "reset-email", max: 10, timeWindow: "1 minute", key: (req) => emailOf(req.params) },
      ]),
      schema: { params: resetPasswordParams, response: { 200: messageResponse } },
    },
    async (request) => {
      await reset.resetPassword(ctx, request.params.email, request.params.token, request.params.newPassword, request.ip);
      return { message: "Senha redefinida com sucesso" };
    },
  );
};
