import type { FastifyReply } from "fastify";
import { loginInput, sessionResponse, sessionUser } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import * as auth from "./service.js";

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
      config: {
        public: true,
        // Per address and e-mail, so one attacker cannot lock everyone out of a shared office IP.
        rateLimit: {
          max: 10,
          timeWindow: "1 minute",
          keyGenerator: (req) => `${req.ip}:${String((req.body as { email?: string } | undefined)?.email ?? "").toLowerCase()}`,
        },
      },
      schema: { body: loginInput, response: { 200: sessionResponse } },
    },
    async (request, reply) => sendSession(reply, await auth.login(ctx, request.body.email, request.body.password), secure),
  );

  api.post(
    "/auth/refresh_token",
    { config: { public: true, rateLimit: { max: 60, timeWindow: "1 minute" } }, schema: { response: { 200: sessionResponse } } },
    async (request, reply) => {
      try {
        return sendSession(reply, await auth.refresh(ctx, request.cookies[REFRESH_COOKIE]), secure);
      } catch (err) {
        void reply.clearCookie(REFRESH_COOKIE, { path: "/api/auth" });
        throw err;
      }
    },
  );

  api.delete("/auth/logout", async (request, reply) => {
    await auth.logout(ctx, request.actor.companyId, request.actor.id);
    void reply.clearCookie(REFRESH_COOKIE, { path: "/api/auth" });
    return { message: "ok" };
  });

  api.get("/auth/me", { schema: { response: { 200: sessionUser } } }, async (request) =>
    auth.me(ctx, request.actor.companyId, request.actor.id),
  );
};
