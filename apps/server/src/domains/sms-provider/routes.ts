import { idParam, smsSandboxPage, smsSandboxQuery, smsSandboxReplyInput, smsSandboxReplyResult } from "@atende/shared";
import { z } from "zod";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Domain } from "../../core/domain.js";
import { AppError } from "../../core/errors.js";
import { handleInboundSms } from "../sms-campaigns/inbound.js";
import { SmsReceiptLine } from "../sms-campaigns/receipts.js";
import { parseForm, validTwilioSignature } from "./twilio-signature.js";

const publicRoute = { public: true };
const statusQuery = z.object({ row: z.string().max(20).optional() });
/** Twilio's callbacks: form fields read raw (X-Twilio-Signature is over them), as Twilio documents them. */
const twilioForm = (fields: string) => ({
  ...publicRoute,
  requestBody: {
    raw: { type: "application/x-www-form-urlencoded", schema: z.record(z.string(), z.string()), description: `Twilio's parameters (${fields}), signed in \`X-Twilio-Signature\`.` },
  },
});
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
const sandboxGate = { gate: { minProfile: "supervisor" as const, planFlag: "useCampaigns" as const } };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/**
 * The SMS provider's ends (docs/api.md "SMS provider"): Twilio's status callback and inbound message
 * webhooks (public, each request's X-Twilio-Signature checked against TWILIO_AUTH_TOKEN over PUBLIC_URL
 * + the path Twilio called), and the sandbox page's API.
 */
export const smsProviderRoutes: Domain = (api, ctx) => {
  const receipts = new SmsReceiptLine(ctx);
  api.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    // Twilio posts application/x-www-form-urlencoded; the signature is over the decoded parameters
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, parseForm(String(body))));
    const verified = (url: string, params: Record<string, string | string[]>, header: unknown) => {
      const token = ctx.config.sms.twilio.authToken;
      if (ctx.config.sms.provider !== "twilio" || !validTwilioSignature(token, `${ctx.config.publicUrl.replace(/\/+$/, "")}${url}`, params, header)) {
        throw new AppError("ERR_SMS_SIGNATURE", "Assinatura inválida");
      }
    };

    scope.post(
      "/webhooks/sms/twilio/status",
      { config: twilioForm("MessageSid, MessageStatus, ErrorCode"), schema: { querystring: statusQuery, response: { 204: z.null().describe("Received") } } }, async (request, reply) => {
      const params = (request.body ?? {}) as Record<string, string | string[]>;
      verified(request.url, params, request.headers["x-twilio-signature"]);
      const sid = one(params.MessageSid) || one(params.SmsSid);
      const status = one(params.MessageStatus) || one(params.SmsStatus);
      const code = Number(one(params.ErrorCode));
      const known = sid && (await receipts.receive({ providerId: sid, rowId: request.query.row, status, errorCode: Number.isFinite(code) && code > 0 ? code : null }));
      if (!known) request.log.warn({ sid, row: request.query.row, status }, "twilio status for an unknown SMS message");
      return reply.code(204).send(null);
    });

    scope.post(
      "/webhooks/sms/twilio/inbound",
      { config: twilioForm("From, Body"), schema: { produces: ["text/xml"], response: { 200: z.string().describe("An empty TwiML answer") } } }, async (request, reply) => {
      const params = (request.body ?? {}) as Record<string, string | string[]>;
      verified(request.url, params, request.headers["x-twilio-signature"]);
      await handleInboundSms(ctx, one(params.From), one(params.Body));
      return reply.type("text/xml").send(EMPTY_TWIML);
    });
  });

  const sandboxOn = () => {
    if (!ctx.config.enableSandbox || ctx.config.sms.provider !== "sandbox") throw new AppError("ERR_SMS_SANDBOX_OFF", "O sandbox de SMS não está ativo");
  };

  api.get("/sms/sandbox/messages/", { config: sandboxGate, schema: { querystring: smsSandboxQuery, response: { 200: smsSandboxPage } } }, async (request) => {
    sandboxOn();
    const companyId = request.actor.companyId;
    const limit = 40;
    const rows = await ctx.sql.many<{ id: string; to_number: string; body: string; segments: number; status: string; reply: string | null; created_at: Date }>(
      `SELECT id::text, to_number, body, segments, status, reply, created_at FROM sms_sandbox_messages m WHERE company_id = $1 ORDER BY m.id DESC LIMIT $2 OFFSET $3`,
      [companyId, limit, (request.query.page - 1) * limit],
    );
    const { n } = await ctx.sql.one<{ n: number }>("SELECT count(*)::int AS n FROM sms_sandbox_messages WHERE company_id = $1", [companyId]);
    return {
      results: rows.map((r) => ({ id: Number(r.id), to: r.to_number, body: r.body, segments: r.segments, status: r.status, reply: r.reply, created_at: r.created_at.toISOString() })),
      count: n,
    };
  });

  /** The sandbox "phone" answers a message: handled like a Twilio inbound, for this company only. */
  api.post(
    "/sms/sandbox/messages/:id/reply/",
    { config: sandboxGate, schema: { params: idParam, body: smsSandboxReplyInput, response: { 200: smsSandboxReplyResult } } },
    async (request) => {
      sandboxOn();
      const companyId = request.actor.companyId;
      const msg = await ctx.sql.maybe<{ to_number: string }>(
        "UPDATE sms_sandbox_messages SET reply = $3, updated_at = now() WHERE company_id = $1 AND id = $2 RETURNING to_number",
        [companyId, request.params.id, request.body.text],
      );
      if (!msg) throw new AppError("ERR_NOT_FOUND", "Mensagem não encontrada");
      const companies = await handleInboundSms(ctx, msg.to_number, request.body.text, companyId);
      return { optedOut: companies.includes(companyId) };
    },
  );
};
