import type { FastifyReply } from "fastify";
import { loginInput, messageResponse, sessionResponse, sessionUser } from "@atende/shared";
import { attemptLimits, emailOf } from "../../core/attempt-limits.js";
import type { Domain } from "../../core/domain.js";
import * as auth from "./service.js";
import { noBody } from "../../core/openapi.js";

export const REFRESH_COOKIE = "jrt";

function sendSession(reply: FastifyReply, session: auth.IssuedSession, secure: boolean) {
  void reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
    httpOnly: true,
    sameSite: "strict",
    secure,
    path: "/api/auth",
    expires: session.refreshExpires,
  });
  return { token: session.token, user: session.user, warningDays: session.warningDays };
}

export const authRoutes: Domain = (api, ctx) => {
  const secure = ctx.config.env === "production";

  api.post(
    "/auth/login",
    {
      config: { public: true },
      // Per address (a flood from one place; generous, as a whole office may share one address), per
      // address and e-mail (guessing one account without locking that office out), and per e-mail
      // (guessing one account from many places).
      preHandler: attemptLimits(api, [
        { name: "login-address", max: 60, timeWindow: "1 minute", key: (req) => req.ip },
        { name: "login-address-email", max: 10, timeWindow: "1 minute", key: (req) => `${req.ip}:${emailOf(req.body)}` },
        { name: "login-email", max: 30, timeWindow: "1 minute", key: (req) => emailOf(req.body) },
      ]),
      schema: { body: loginInput, response: { 200: sessionResponse } },
    },
    async (request, reply) => sendSession(reply, await auth.login(ctx, request.body.email, request.body.password, request.ip), secure),
  );

  api.post(
    "/auth/refresh_token",
    { config: { public: true, rateLimit: { max: 60, timeWindow: "1 minute" }, ...noBody }, schema: { response: { 200: sessionResponse } } },
    async (request, reply) => {
      try {
        return sendSession(reply, await auth.refresh(ctx, request.cookies[REFRESH_COOKIE], request.ip), secure);
      } catch (err) {
        void reply.clearCookie(REFRESH_COOKIE, { path: "/api/auth" });
        throw err;
      }
    },
  );

  api.delete("/auth/logout", { schema: { response: { 200: messageResponse } } }, async (request, reply) => {
    await auth.logout(ctx, request.actor.companyId, request.actor.id, request.actor.sessionId);
    void reply.clearCookie(REFRESH_COOKIE, { path: "/api/auth" });
    return { message: "ok" };
  });

  api.get("/auth/me", { schema: { response: { 200: sessionUser } } }, async (request) =>
    auth.me(ctx, request.actor.companyId, request.actor.id),
  );
};
