import { z } from "zod";
import "../../channels/cloud-api/index.js";
import type { Domain } from "../../core/domain.js";
import { AppError } from "../../core/errors.js";
import * as businessRepo from "../businesses/repository.js";
import { processWebhookEvent, WEBHOOK_JOB, WEBHOOK_MAX_ATTEMPTS, webhookJobPayload } from "./process-event.js";
import { retryStatus, STATUS_RETRY_JOB, statusRetryPayload } from "./process-messages.js";
import { InlineWebhookRunner } from "./inline-runner.js";
import { purgeWebhookEvents, WEBHOOK_PURGE_CRON, WEBHOOK_PURGE_JOB, webhookPurgePayload } from "./retention.js";
import { WebhookEventWriter } from "./event-writer.js";
import { WebhookLookups } from "./lookups.js";
import * as repo from "./repository.js";
import { sameSecret, sha256Hex, validSignature } from "./signature.js";

const publicRoute = { public: true };
/** Meta's delivery: read raw (its X-Hub-Signature-256 is over the bytes), shape documented by Meta. */
const metaDelivery = {
  ...publicRoute,
  requestBody: {
    raw: {
      type: "application/json",
      schema: z.object({ object: z.string(), entry: z.array(z.looseObject({ id: z.string() })) }).loose(),
      description: "A Cloud API webhook delivery as Meta sends it, signed with the app secret in `X-Hub-Signature-256`.",
    },
  },
};
const received = z.object({ received: z.literal(true) });
const businessParam = z.object({ businessId: z.coerce.number().int().positive().max(2147483647) });
const verifyQuery = z.object({
  "hub.mode": z.string().max(50).optional(),
  "hub.verify_token": z.string().max(500).optional(),
  "hub.challenge": z.string().max(500).optional(),
});
const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;
/** A delivery still pending this long after it arrived is queued as a job. */
const PENDING_SWEEP_MS = 60_000;

/**
 * The Cloud API webhook of each business (public: Meta calls it). GET answers the verification
 * handshake; POST checks X-Hub-Signature-256 over the raw body, stores the delivery once (by the
 * body's hash) and answers 200 at once; it is processed at once in this process, and by a durable job
 * when that fails or never happens.
 */
/** Pending deliveries queued per statement by the sweep. */
const SWEEP_BATCH = 500;

export const webhooksRoutes: Domain = (api, ctx) => {
  // Only this plugin's routes: the body stays raw bytes (the signature is over them).
  api.removeAllContentTypeParsers();
  api.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  const lookups = new WebhookLookups(ctx.sql, ctx.secrets);
  const runner = new InlineWebhookRunner(ctx, lookups);
  const writer = new WebhookEventWriter(ctx.sql, ctx.log);
  ctx.jobs.define({ name: WEBHOOK_JOB, schema: webhookJobPayload, concurrency: 2, retryLimit: 5, handler: (p) => processWebhookEvent(ctx, lookups, p.eventId) });
  ctx.jobs.define({
    name: WEBHOOK_PURGE_JOB,
    schema: webhookPurgePayload,
    cron: WEBHOOK_PURGE_CRON,
    concurrency: 1,
    batchSize: 1,
    handler: async () => void (await purgeWebhookEvents(ctx)),
  });
  ctx.jobs.define({ name: STATUS_RETRY_JOB, schema: statusRetryPayload, concurrency: 1, handler: (p) => retryStatus(ctx, p) });
  // Deliveries still pending a minute after they arrived (their process stopped, or was overloaded):
  // queued as jobs at start and every minute (an indexed read of the few pending rows).
  // A failed sweep is logged and tried again a minute later (the rows stay pending meanwhile).
  const sweep = async () => {
    const pending = await repo.unprocessed(ctx.sql, PENDING_SWEEP_MS / 1000, WEBHOOK_MAX_ATTEMPTS).catch((err: unknown) => {
      ctx.log.error({ err }, "could not look for pending webhook deliveries");
      return [];
    });
    for (let i = 0; i < pending.length; i += SWEEP_BATCH) {
      const batch = pending.slice(i, i + SWEEP_BATCH);
      await ctx.jobs
        .sendMany(WEBHOOK_JOB, batch.map((e) => ({ payload: { eventId: e.id }, singletonKey: `webhook-${e.id}` })))
        .catch((err: unknown) =>
          ctx.log.error({ err, firstEventId: batch[0]!.id, count: batch.length }, "could not queue pending webhook deliveries; the next sweep tries again"),
        );
    }
  };
  // The first sweep runs beside the start, not before it: after a crash under load thousands of
  // deliveries are pending, and the server must start serving (and take new ones) meanwhile.
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const sweepOnce = () => {
    running ??= sweep().finally(() => (running = null));
    return running;
  };
  api.addHook("onReady", async () => {
    if (!ctx.config.runJobs) return;
    void sweepOnce();
    timer = setInterval(() => void sweepOnce(), PENDING_SWEEP_MS);
    timer.unref();
  });
  api.addHook("onClose", async () => {
    if (timer) clearInterval(timer);
    await running;
  });

  api.get(
    "/webhooks/whatsapp/:businessId",
    { config: publicRoute, schema: { params: businessParam, querystring: verifyQuery, produces: ["text/plain"], response: { 200: z.string().describe("hub.challenge, echoed") } } }, async (request, reply) => {
    const q = request.query;
    const business = await businessRepo.findSecretsForWebhook(ctx.sql, ctx.secrets, request.params.businessId);
    if (!business || q["hub.mode"] !== "subscribe" || !sameSecret(q["hub.verify_token"] ?? "", business.verify_token)) {
      throw new AppError("ERR_NO_PERMISSION", "Verify token inválido");
    }
    return reply.type("text/plain").send(q["hub.challenge"] ?? "");
  });

  api.post("/webhooks/whatsapp/:businessId", { config: metaDelivery, schema: { params: businessParam, response: { 200: received } } }, async (request, reply) => {
    const receivedAt = new Date();
    const business = await lookups.business(request.params.businessId);
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (!business || !validSignature(business.app_secret, raw, request.headers["x-hub-signature-256"])) {
      throw new AppError("ERR_NO_PERMISSION", "Assinatura inválida", {}, 401);
    }
    const body = raw.toString("utf8");
    let payload: { object?: unknown };
    try {
      payload = JSON.parse(body) as { object?: unknown };
    } catch (err) {
      // answered with a code (Meta shows the failed delivery on its side); logged for the operator
      request.log.warn({ err, businessId: business.id }, "signed webhook delivery is not JSON");
      throw new AppError("ERR_VALIDATION", "JSON inválido");
    }
    if (payload?.object === "whatsapp_business_account") {
      const id = await writer.store({ companyId: business.company_id, businessId: business.id, sha256: sha256Hex(raw), body });
      if (id !== null) {
        // Processed here at once (the stored row is the durable part: the sweep below queues a job for a
        // delivery still pending a minute later). A process without workers leaves it to a job.
        if (ctx.config.runJobs) runner.push({ id, company_id: business.company_id, business_id: business.id, payload, received_at: receivedAt }, business);
        else await ctx.jobs.send(WEBHOOK_JOB, { eventId: id }, { singletonKey: `webhook-${id}` });
      }
    }
    return reply.status(200).send({ received: true });
  });
};
