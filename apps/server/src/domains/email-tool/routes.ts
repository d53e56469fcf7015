import { gateForPath, sendEmailInput, sentEmail, sentEmailsPage, sentEmailsQuery } from "@atende/shared";
import type { Domain } from "../../core/domain.js";
import { createMailer } from "../../core/mailer.js";
import { runEmailSend, SEND_EMAIL_JOB, sendEmailJobPayload } from "./job.js";
import * as service from "./service.js";

/** Supervisors and administrators with the plan's useCampaigns, like the menu items /Email and /EmailLis. */
const sendGate = { gate: gateForPath("/Email") };
const listGate = { gate: gateForPath("/EmailLis") };

/**
 * The simple e-mail tool (spec 3 §2, §7 'Other calls'): one POST per recipient, sent by a durable job
 * through the server's mailer (createMailer: SMTP_URL); the company's sent e-mails listed 5 a page.
 */
export const emailToolRoutes: Domain = (api, ctx) => {
  const mailer = createMailer(ctx.config, api.log, ctx.sql);
  ctx.jobs.define({
    name: SEND_EMAIL_JOB,
    schema: sendEmailJobPayload,
    concurrency: 1,
    batchSize: 10,
    handler: async (payload) => {
      await runEmailSend(ctx, mailer, payload);
    },
  });

  api.post("/enviar-email", { config: sendGate, schema: { body: sendEmailInput, response: { 200: sentEmail } } }, async (request) =>
    service.sendEmail(ctx, request.actor, request.body),
  );
  api.get("/listar-emails-enviados", { config: listGate, schema: { querystring: sentEmailsQuery, response: { 200: sentEmailsPage } } }, async (request) =>
    service.listSentEmails(ctx, request.actor.companyId, request.query.page),
  );
};
