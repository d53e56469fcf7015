import { bulkDeleteInput, bulkDeleteResponse, idParam, messageResponse, user, userCreateInput, userListItem, usersListQuery, usersPage, usersQuery, userUpdateInput } from "@atende/shared";
import { z } from "zod";
import { attemptLimits } from "../../core/attempt-limits.js";
import type { Domain } from "../../core/domain.js";
import * as users from "./service.js";

const admin = { gate: { minProfile: "admin" as const } };

export const usersRoutes: Domain = (api, ctx) => {
  ctx.realtime.onPresenceChange((companyId, userId) => users.announcePresence(ctx, companyId, userId));
  api.get("/users", { config: admin, schema: { querystring: usersQuery, response: { 200: usersPage } } }, (request) =>
    users.listUsers(ctx, request.actor, request.query),
  );

  api.get("/users/list", { schema: { querystring: usersListQuery, response: { 200: z.array(userListItem) } } }, (request) =>
    users.listUserNames(ctx, request.actor, request.query.companyId),
  );

  api.get("/users/:id", { schema: { params: idParam, response: { 200: user } } }, (request) =>
    users.showUser(ctx, request.actor, request.params.id),
  );

  api.post("/users", { config: admin, schema: { body: userCreateInput, response: { 200: user } } }, (request) =>
    users.createUser(ctx, request.actor, request.body),
  );

  // Open to every user for their own account; the service applies the §6 protections.
  api.put(
    "/users/:id",
    {
      // Guessing one's current password through a stolen session: 10 tries a minute.
      preHandler: attemptLimits(api, [
        {
          name: "current-password",
          max: 10,
          timeWindow: "1 minute",
          key: (req) => `user:${req.actor.id}`,
          applies: (req) => (req.body as { currentPassword?: unknown } | undefined)?.currentPassword !== undefined,
        },
      ]),
      schema: { params: idParam, body: userUpdateInput, response: { 200: user } },
    },
    (request) => users.updateUser(ctx, request.actor, request.params.id, request.body, request.ip),
  );

  api.delete("/users/:id", { config: admin, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await users.deleteUser(ctx, request.actor, request.params.id);
    return { message: "User deleted" };
  });

  api.post("/users/bulk-delete", { config: admin, schema: { body: bulkDeleteInput, response: { 200: bulkDeleteResponse } } }, async (request) => ({
    deleted: await users.bulkDeleteUsers(ctx, request.actor, request.body.ids),
  }));
};
