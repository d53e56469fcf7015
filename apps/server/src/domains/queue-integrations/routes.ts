import {
  gateForPath,
  idParam,
  messageResponse,
  queueIntegration,
  queueIntegrationInput,
  queueIntegrationsPage,
  queueIntegrationsQuery,
  queueIntegrationTestInput,
  queueIntegrationTestResult,
} from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { runTurn, TURN_JOB, turnPayload } from "./runtime.js";
import * as service from "./service.js";

/** Super users of a company whose plan has useIntegrations: the page's gate (`/queue-integration`), as the menu and the web guard use it. */
const config = { gate: gateForPath("/queue-integration") };

/** Queue integrations (spec 3 §7): GET/POST /queueIntegration, GET/PUT/DELETE /queueIntegration/{id}, POST /queueIntegration/testSession. */
export const queueIntegrationsRoutes: Domain = (api, ctx) => {
  ctx.jobs.define({ name: TURN_JOB, schema: turnPayload, concurrency: 1, retryLimit: 1, handler: (p) => runTurn(ctx, p) });
  ctx.realtime.onConnection((socket) => {
    const { actor } = socket.data;
    if (actor.super) void socket.join(service.integrationsRoom(actor.companyId));
  });

  api.get("/queueIntegration", { config, schema: { querystring: queueIntegrationsQuery, response: { 200: queueIntegrationsPage } } }, (request) =>
    service.pageIntegrations(ctx, request.actor.companyId, request.query),
  );
  api.post("/queueIntegration", { config, schema: { body: queueIntegrationInput, response: { 200: queueIntegration } } }, (request) =>
    service.createIntegration(ctx, request.actor.companyId, request.body),
  );
  api.post("/queueIntegration/testSession", { config, schema: { body: queueIntegrationTestInput, response: { 200: queueIntegrationTestResult } } }, (request) =>
    service.testSession(ctx, request.actor.companyId, request.body),
  );
  api.get("/queueIntegration/:id", { config, schema: { params: idParam, response: { 200: queueIntegration } } }, (request) =>
    service.showIntegration(ctx, request.actor.companyId, request.params.id),
  );
  api.put("/queueIntegration/:id", { config, schema: { params: idParam, body: queueIntegrationInput, response: { 200: queueIntegration } } }, (request) =>
    service.updateIntegration(ctx, request.actor.companyId, request.params.id, request.body),
  );
  api.delete("/queueIntegration/:id", { config, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await service.deleteIntegration(ctx, request.actor.companyId, request.params.id);
    return { message: "Integration deleted" };
  });
};
