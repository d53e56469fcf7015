import { emailSenderAdmin, emailSenderInput, emailSendersAdminPage, emailSendersPage, idParam, messageResponse } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import * as repo from "./repository.js";
import { addSender, presentSenderAdmin, removeSender, resendVerification } from "./service.js";
import { noBody } from "../../core/openapi.js";

const campaignGate = { gate: { minProfile: "supervisor" as const, planFlag: "useCampaigns" as const, companySetting: "campaignsEnabled" as const } };
const adminGate = { gate: { minProfile: "admin" as const, planFlag: "useCampaigns" as const, companySetting: "campaignsEnabled" as const } };

/** E-mail senders (spec 3 §3, §7 GET /email/senders/): verified ones for the campaign form; admins manage them. */
export const emailSendersRoutes: Domain = (api, ctx) => {
  api.get("/email/senders", { config: campaignGate, schema: { response: { 200: emailSendersPage } } }, async (request) => {
    const rows = await repo.listSenders(ctx.sql, request.actor.companyId, true);
    return { results: rows.map((r) => ({ id: r.id, email_address: r.email_address })), count: rows.length };
  });
  api.get("/email/senders/all", { config: adminGate, schema: { response: { 200: emailSendersAdminPage } } }, async (request) => {
    const rows = await repo.listSenders(ctx.sql, request.actor.companyId, false);
    return { results: rows.map(presentSenderAdmin), count: rows.length };
  });
  api.post("/email/senders", { config: adminGate, schema: { body: emailSenderInput, response: { 200: emailSenderAdmin } } }, async (request) =>
    addSender(ctx, request.actor.companyId, request.body.email_address),
  );
  api.post("/email/senders/:id/resend", { config: { ...adminGate, ...noBody }, schema: { params: idParam, response: { 200: emailSenderAdmin } } }, async (request) =>
    resendVerification(ctx, request.actor.companyId, request.params.id),
  );
  api.delete("/email/senders/:id", { config: adminGate, schema: { params: idParam, response: { 200: messageResponse } } }, async (request) => {
    await removeSender(ctx, request.actor.companyId, request.params.id);
    return { message: "Remetente removido" };
  });
};
