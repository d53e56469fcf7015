import { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { reportedToCaller } from "../../core/ignore.js";
import type { Sql } from "../../db/sql.js";
import * as messageRepo from "../messages/repository.js";
import { sendOutgoing } from "../messages/send-message.js";
import { menuAfterBot } from "../../channels/routing/queue-routing.js";
import { emitTicketUpdate } from "../tickets/events.js";
import { findWhatsapp } from "../whatsapp/repository.js";
import * as ticketRepo from "../tickets/repository.js";
import { BotCallFailed } from "./providers/call.js";
import { detectIntent } from "./providers/dialogflow.js";
import { httpBotTurn } from "./providers/http-bot.js";
import { continueChat, startChat, type TypebotStep } from "./providers/typebot.js";
import type { BotInput, BotTurn } from "./providers/types.js";
import * as repo from "./repository.js";
import { storedServiceAccount } from "./service.js";

/**
 * The runtime of queue integrations (docs/architecture.md "Queue integrations"): a pending ticket that
 * no agent has taken, in a queue (queues.integration_id) or on a connection (whatsapps.integration_id)
 * with an integration, is answered by it. The ticket carries the state: integration_id set and
 * use_integration true while the bot drives it; integration_id set and use_integration false once the
 * bot handed it over (it then waits, pending, for the queue's agents and the bot stays out).
 */
export const TURN_JOB = "queue-integration.turn";
export const turnPayload = z.object({ companyId: z.number().int(), ticketId: z.number().int(), messageId: z.number().int() });

/**
 * The one hook inbound routing calls (channels/inbound.ts) after a customer's message is stored:
 * claims the ticket for its integration when it has none yet, and queues the bot's turn as a durable job.
 */
export async function integrationInbound(ctx: AppContext, ticket: ticketRepo.TicketRow, messageId: number): Promise<void> {
  if (ticket.status !== "pending" || ticket.user_id !== null || ticket.is_group) return;
  const companyId = ticket.company_id;
  let integrationId = ticket.use_integration ? ticket.integration_id : null;
  if (integrationId === null) {
    // a ticket handed over already is taken again only by another bot: its current queue's own
    // (the customer chose, or was moved to, a queue with a bot of its own since)
    integrationId =
      ticket.integration_id === null
        ? await integrationFor(ctx.sql, companyId, ticket.queue_id, ticket.whatsapp_id)
        : await integrationFor(ctx.sql, companyId, ticket.queue_id, null);
    if (integrationId === null || integrationId === ticket.integration_id) return;
    const claimed = await ctx.sql.exec(
      `UPDATE tickets SET integration_id = $3, use_integration = true, updated_at = now()
        WHERE company_id = $1 AND id = $2 AND integration_id IS NOT DISTINCT FROM $4 AND NOT use_integration
          AND status = 'pending' AND user_id IS NULL`,
      [companyId, ticket.id, integrationId, ticket.integration_id],
    );
    if (!claimed) return;
  }
  await ctx.jobs.send(TURN_JOB, { companyId, ticketId: ticket.id, messageId });
}

/** The queue's integration, else the connection's (only one of the company's own). */
async function integrationFor(sql: Sql, companyId: number, queueId: number | null, whatsappId: number | null): Promise<number | null> {
  const row = await sql.maybe<{ id: number }>(
    `SELECT i.id FROM queue_integrations i
      WHERE i.company_id = $1 AND i.id = COALESCE(
        (SELECT q.integration_id FROM queues q WHERE q.company_id = $1 AND q.id = $2),
        (SELECT w.integration_id FROM whatsapps w WHERE w.company_id = $1 AND w.id = $3))`,
    [companyId, queueId, whatsappId],
  );
  return row?.id ?? null;
}

/** Turns of one ticket run one after the other, in arrival order, in this process. */
const chains = new Map<number, Promise<unknown>>();
export function runTurn(ctx: AppContext, p: z.infer<typeof turnPayload>): Promise<void> {
  const previous = chains.get(p.ticketId) ?? Promise.resolve();
  const run = previous.then(
    () => turn(ctx, p),
    () => turn(ctx, p),
  );
  const tail = run.catch(reportedToCaller);
  chains.set(p.ticketId, tail);
  void tail.then(() => {
    if (chains.get(p.ticketId) === tail) chains.delete(p.ticketId);
  });
  return run;
}

/** The ticket is still the bot's: pending, no agent, the integration still on. */
async function botTicket(ctx: AppContext, companyId: number, ticketId: number, integrationId?: number) {
  const t = await ticketRepo.findTicket(ctx.sql, companyId, ticketId);
  if (!t || t.status !== "pending" || t.user_id !== null || !t.use_integration || t.integration_id === null) return null;
  if (integrationId !== undefined && t.integration_id !== integrationId) return null;
  return t;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A bot's turn sends at most this many messages of at most this many characters: an answer is not a way to flood the contact. */
export const MAX_REPLIES = 20;
export const MAX_REPLY_CHARS = 4096;
const same = (a: string, b: string) => b !== "" && a.trim().toLocaleLowerCase("pt-BR") === b.trim().toLocaleLowerCase("pt-BR");

async function turn(ctx: AppContext, p: z.infer<typeof turnPayload>): Promise<void> {
  const ticket = await botTicket(ctx, p.companyId, p.ticketId);
  if (!ticket) return;
  const integration = await repo.findIntegration(ctx.sql, p.companyId, ticket.integration_id!);
  const message = await messageRepo.findMessage(ctx.sql, p.companyId, p.messageId);
  if (!integration || !message) {
    await handOver(ctx, p.companyId, ticket.id, integration ? "message not found" : "integration deleted");
    return;
  }
  const input: BotInput = {
    text: message.body,
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queue_id, whatsappId: ticket.whatsapp_id },
    contact: { id: ticket.contact_id, name: ticket.contact_name, number: ticket.contact_number },
    message: { id: message.id, body: message.body, mediaType: message.media_type, createdAt: message.created_at.toISOString() },
  };
  let result: BotTurn;
  let delay = 0;
  try {
    switch (integration.type) {
      case "typebot":
        result = await typebotTurn(ctx, integration, input);
        delay = integration.typebot_delay_message;
        break;
      case "n8n":
      case "webhook":
        result = await httpBotTurn(integration.url_n8n, input, integration.type);
        break;
      case "dialogflow":
        result = await detectIntent(ctx.config.dialogflowApiUrl, storedServiceAccount(ctx, integration), {
          projectName: integration.project_name,
          session: `atende-${ticket.uuid}`,
          text: message.body,
          language: integration.language,
        });
        break;
    }
  } catch (err) {
    // any failure of the bot (refused address, timeout after retries, bad answer, unreadable key): a human takes over
    ctx.log.warn({ err, companyId: p.companyId, ticketId: ticket.id, integrationId: integration.id }, "queue integration failed; the ticket goes to the queue's agents");
    await handOver(ctx, p.companyId, ticket.id, err instanceof BotCallFailed ? err.message : String(err));
    return;
  }
  const replies = result.replies.slice(0, MAX_REPLIES).map((r) => r.slice(0, MAX_REPLY_CHARS));
  if (result.replies.length > MAX_REPLIES) ctx.log.warn({ companyId: p.companyId, ticketId: ticket.id, count: result.replies.length }, "a queue integration answered too many messages; the first ones are sent");
  for (const [i, text] of replies.entries()) {
    if (i > 0 && delay > 0) await sleep(delay);
    // an agent may have taken the ticket meanwhile: the bot stops talking
    const current = await botTicket(ctx, p.companyId, ticket.id, integration.id);
    if (!current) return;
    try {
      await sendOutgoing(ctx, { ticket: current, body: text, userId: null });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      ctx.log.warn({ err, companyId: p.companyId, ticketId: ticket.id }, "a queue integration's answer could not be sent; the ticket goes to the queue's agents");
      await handOver(ctx, p.companyId, ticket.id, err.code);
      return;
    }
  }
  if (result.handOver) await handOver(ctx, p.companyId, ticket.id, "the bot transferred the ticket");
}

/**
 * Typebot: one session per ticket (queue_integration_sessions). The finish keyword ends it and hands
 * over; the restart keyword (or typebotExpires minutes without messages) starts a new one, the former
 * sending typebotRestartMessage first; an input answered with no bubbles gets typebotUnknownMessage;
 * the flow's end (no input left to wait for) hands over.
 */
async function typebotTurn(ctx: AppContext, it: repo.QueueIntegrationRow, input: BotInput): Promise<BotTurn> {
  const companyId = it.company_id;
  const ticketId = input.ticket.id;
  if (same(input.text, it.typebot_keyword_finish)) {
    await repo.dropSession(ctx.sql, companyId, ticketId);
    return { replies: [], handOver: true };
  }
  const session = await repo.findSession(ctx.sql, companyId, ticketId, it.typebot_expires);
  const restart = same(input.text, it.typebot_keyword_restart);
  const replies: string[] = [];
  let step: TypebotStep;
  if (!session || session.expired || restart || session.integration_id !== it.id || !session.session_id) {
    if (restart && it.typebot_restart_message) replies.push(it.typebot_restart_message);
    step = await startChat(it.url_n8n, it.typebot_slug, {
      number: input.contact.number,
      pushName: input.contact.name,
      ticketId: String(ticketId),
      firstMessage: input.text,
    });
  } else {
    step = await continueChat(it.url_n8n, session.session_id, input.text);
    if (!step.bubbles.length && !step.ended && it.typebot_unknown_message) replies.push(it.typebot_unknown_message);
  }
  replies.push(...step.bubbles);
  if (step.ended) await repo.dropSession(ctx.sql, companyId, ticketId);
  else await repo.saveSession(ctx.sql, companyId, ticketId, it.id, step.sessionId);
  return { replies, handOver: step.ended };
}

/**
 * The bot stops for the ticket: it stays pending for the queue's agents, integration_id kept as the
 * mark. A ticket a connection's bot leaves without a queue gets the connection's queue menu then.
 */
export async function handOver(ctx: AppContext, companyId: number, ticketId: number, reason: string): Promise<void> {
  const changed = await ctx.sql.exec("UPDATE tickets SET use_integration = false, updated_at = now() WHERE company_id = $1 AND id = $2 AND use_integration", [
    companyId,
    ticketId,
  ]);
  await repo.dropSession(ctx.sql, companyId, ticketId);
  if (!changed) return;
  ctx.log.info({ companyId, ticketId, reason }, "queue integration handed the ticket over");
  const t = await ticketRepo.findTicket(ctx.sql, companyId, ticketId);
  if (!t) return;
  const connection = t.user_id === null && t.whatsapp_id !== null ? await findWhatsapp(ctx.sql, companyId, t.whatsapp_id) : null;
  const menu = connection ? menuAfterBot(t, connection) : null;
  if (menu?.sends.length) {
    await ticketRepo.updateTicket(ctx.sql, companyId, ticketId, menu.patch);
    for (const body of menu.sends) {
      try {
        await sendOutgoing(ctx, { ticket: t, body, userId: null });
      } catch (err) {
        // the hand-over stands; the customer's next message resends the menu (channels/routing)
        ctx.log.warn({ err, companyId, ticketId }, "queue menu after a bot's hand-over could not be sent");
      }
    }
  }
  await emitTicketUpdate(ctx, (await ticketRepo.findTicket(ctx.sql, companyId, ticketId)) ?? t);
}
