import { idParam, messageResponse, queue, queueInput, queueUpdateInput } from "@atende/shared";
import { z } from "zod";
import type { Domain } from "../../core/domain.js";
import * as queues from "./service.js";

const admin = { gate: { minProfile: "admin" as const } };

/** Queues (2-administration §7): any company user reads them, administrators change them. */
export const queuesRoutes: Domain = (api, ctx) => {
  api.get("/queue", { schema: { response: { 200: z.array(queue) } } }, async (request) =>
    queues.listQueues(ctx, request.actor.companyId),
  );

  api.get("/queue/:id", { schema: { params: idParam, response: { 200: queue } } }, async (request) =>
    queues.getQueue(ctx, request.actor.companyId, request.params.id),
  );

  api.post("/queue", { config: admin, schema: { body: queueInput, response: { 200: queue } } }, async (request) =>
    queues.createQueue(ctx, request.actor.companyId, request.body),
  );

  api.put(
    "/queue/:id",
    { config: admin, schema: { params: idParam, body: queueUpdateInput, response: { 200: queue } } },
    async (request) => queues.updateQueue(ctx, request.actor.companyId, request.params.id, request.body),
  );

  api.delete("/queue/:id", { config: admin, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await queues.deleteQueue(ctx, request.actor.companyId, request.params.id);
    return { message: "Fila excluída" };
  });
};
