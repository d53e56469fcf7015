import { authorizeTicket, type TicketAction, type TicketUpdateInput, type TicketUpdateResponse } from "@atende/shared";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { enforce } from "../../core/enforce.js";
import { AppError } from "../../core/errors.js";
import { afterAgentClose } from "../../channels/routing/closing.js";
import { sendOutgoing } from "../messages/send-message.js";
import { greetingFor } from "../messages/variables.js";
import * as whatsappRepo from "../whatsapp/repository.js";
import { settingEnabled } from "./company-settings.js";
import { emitTicketUpdate } from "./events.js";
import { presentTicket } from "./presenter.js";
import { changedSince, StaleTicket, ticketAlreadyChanged } from "./ticket-conflict.js";
import * as repo from "./repository.js";
import type { TicketPatch, TicketRow } from "./repository.js";
import { loadVisibleTicket } from "./visibility.js";

type Action = TicketAction | "settings";

/**
 * The §4 transition a PUT asks for: `action` when given; otherwise inferred from the status asked
 * and the current one, as the original clients send it (a queueId that moves the ticket, or a new
 * user without a status change, is a transfer).
 */
export function inferAction(current: TicketRow, input: TicketUpdateInput): Action {
  if (input.action) return input.action;
  const movesQueue = input.queueId !== undefined && input.queueId !== current.queue_id;
  const s = input.status;
  if (s === "closed") return "finish";
  if (movesQueue) return "transfer";
  if (s === "open" && current.status === "pending") return "accept";
  if (s === "open" && current.status === "closed") return "reopen";
  if (s === "open" && current.status === "paused") return "resume";
  if (s === "paused") return "pause";
  if (s === "pending" && current.status === "open" && !input.userId) return "return";
  if (input.userId !== undefined && input.userId !== current.user_id) return "transfer";
  if (s === undefined || s === current.status) return "settings";
  throw new AppError("ERR_VALIDATION", `Transição inválida: ${current.status} → ${s}`);
}

function uniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "23505";
}

async function requireTagIfNeeded(ctx: AppContext, row: TicketRow): Promise<void> {
  if (!(await settingEnabled(ctx.sql, row.company_id, "requireTagBeforeClosing"))) return;
  if ((await repo.tagCount(ctx.sql, row.company_id, row.id)).n === 0) {
    throw new AppError("ERR_REQUIRE_TAG_BEFORE_CLOSING", "Adicione uma tag antes de fechar o ticket");
  }
}

/** Sends an automatic message; a disconnected connection must not undo the transition, but the failure is logged. */
async function sendQuietly(ctx: AppContext, ticket: TicketRow, body: string, userId: number | null): Promise<void> {
  try {
    await sendOutgoing(ctx, { ticket, body, userId });
  } catch (err) {
    ctx.log.warn({ err, companyId: ticket.company_id, ticketId: ticket.id, whatsappId: ticket.whatsapp_id }, "automatic ticket message not sent; the transition stands");
  }
}

export async function updateTicket(ctx: AppContext, actor: RequestActor, id: number, input: TicketUpdateInput): Promise<TicketUpdateResponse> {
  const companyId = actor.companyId;
  const current = await loadVisibleTicket(ctx, actor, id);
  const action = inferAction(current, input);
  const ruleActor = { id: actor.id, profile: actor.profile, super: actor.super };
  const ruleTicket = { status: current.status, userId: current.user_id, queue: current.queue_name ? { name: current.queue_name } : null };

  const refusal = authorizeTicket(ruleActor, action === "settings" ? "editSettings" : action, ruleTicket);
  // the status no longer allows the action: most often another agent acted first (a stale view)
  if (refusal === "ERR_VALIDATION" && action !== "settings") throw await ticketAlreadyChanged(ctx, actor, current);
  enforce(refusal);

  const patch: TicketPatch = {};
  let nextTicket: { id: number; uuid: string } | null | undefined;
  let assignee: { id: number; name: string } | null = null;
  switch (action) {
    case "accept": {
      const target = input.userId && authorizeTicket(ruleActor, "assignOther", ruleTicket) === null ? input.userId : actor.id;
      assignee = target === actor.id ? { id: actor.id, name: actor.name } : await repo.userInCompany(ctx.sql, companyId, target);
      if (!assignee) throw new AppError("ERR_NO_USER_FOUND");
      Object.assign(patch, { status: "open", user_id: assignee.id, chatbot: false });
      break;
    }
    case "return":
      Object.assign(patch, { status: "pending", user_id: null });
      break;
    case "pause":
      patch.status = "paused";
      break;
    case "resume":
      patch.status = "open";
      break;
    case "finish":
      await requireTagIfNeeded(ctx, current);
      Object.assign(patch, {
        status: "closed",
        prompt_id: null,
        integration_id: null,
        use_integration: false,
        chatbot: false,
        unread_messages: 0,
        closed_at: new Date(),
      });
      break;
    case "reopen":
      Object.assign(patch, { status: "open", user_id: actor.id, unread_messages: 0, closed_at: null });
      break;
    case "transfer": {
      if (!input.queueId) throw new AppError("ERR_VALIDATION", "queueId: Required", { fields: { queueId: "Required" } });
      if (!(await repo.queueInCompany(ctx.sql, companyId, input.queueId))) throw new AppError("ERR_VALIDATION", "Fila não encontrada");
      if (input.userId && !(await repo.userInCompany(ctx.sql, companyId, input.userId))) throw new AppError("ERR_NO_USER_FOUND");
      if (input.whatsappId && input.whatsappId !== current.whatsapp_id) {
        if (!(await whatsappRepo.findWhatsapp(ctx.sql, companyId, input.whatsappId))) throw new AppError("ERR_NO_WAPP_FOUND");
        patch.whatsapp_id = input.whatsappId;
      }
      Object.assign(patch, {
        queue_id: input.queueId,
        user_id: input.userId ?? null,
        status: input.userId ? "open" : "pending",
        chatbot: false,
      });
      break;
    }
    case "settings":
      break;
  }
  if (input.useIntegration !== undefined) patch.use_integration = input.useIntegration;
  if (input.promptId !== undefined && action !== "finish") patch.prompt_id = input.promptId;
  if (input.integrationId !== undefined && action !== "finish") patch.integration_id = input.integrationId;

  try {
    await ctx.sql.tx(async (sql) => {
      // the row is locked with the few columns the conflict check needs; the full row only on conflict
      const locked = await repo.lockTicket(sql, companyId, id);
      if (!locked) throw new AppError("ERR_NO_TICKET_FOUND");
      if (changedSince(current, locked)) throw new StaleTicket((await repo.findTicket(sql, companyId, id))!);
      await repo.updateTicket(sql, companyId, id, patch);
      // the cycle's tracking row follows in the database (triggers of migration 0400)
    });
  } catch (err) {
    if (err instanceof StaleTicket) throw await ticketAlreadyChanged(ctx, actor, err.now);
    if (uniqueViolation(err)) {
      const other = await repo.findActiveTicket(ctx.sql, companyId, current.contact_id, patch.whatsapp_id ?? current.whatsapp_id);
      const row = other ? await repo.findTicket(ctx.sql, companyId, other.id) : null;
      throw new AppError("ERR_OTHER_OPEN_TICKET", "Já existe um ticket aberto para este contato", row ? { ticket: presentTicket(row) } : {});
    }
    throw err;
  }

  let row = (await repo.findTicket(ctx.sql, companyId, id))!;
  await emitTicketUpdate(ctx, row, current);

  // messages sent after the change (greeting, completion, rating) move the ticket's last message
  let sentAfter = false;
  if (action === "accept" && assignee && !row.is_group && (await settingEnabled(ctx.sql, companyId, "sendGreetingAccepted"))) {
    const text = `${greetingFor(new Date())} *${row.contact_name}*, meu nome é *${assignee.name}* e agora vou prosseguir com seu atendimento!`;
    await sendQuietly(ctx, row, text, assignee.id);
    sentAfter = true;
  }
  // completion message, then the rating message when enabled (sent once per close, by the channel layer)
  if (action === "finish") {
    await afterAgentClose(ctx, row);
    sentAfter = true;
  }
  if (action === "pause") nextTicket = await repo.nextOpenTicket(ctx.sql, companyId, row.user_id ?? actor.id, id);
  if (sentAfter) row = (await repo.findTicket(ctx.sql, companyId, id))!;
  return { ...presentTicket(row), ...(action === "pause" ? { nextTicket: nextTicket ?? null } : {}) };
}
