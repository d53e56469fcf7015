import { limitReached, lockPlanLimit } from "../../db/plan-limits.js";
import { can, channel, type Whatsapp, type WhatsappApiToken, type WhatsappProvider, type whatsappInput, type WhatsappSession, type whatsappUpdateInput } from "@atende/shared";
import type { z } from "zod";
import { channels } from "../../channels/manager.js";
import type { RequestActor } from "../../core/actor.js";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { apiTokenHash, apiTokenHint, generateApiToken } from "./api-token.js";
import { presentSession, presentWhatsapp } from "./presenter.js";
import * as repo from "./repository.js";

type WhatsappInput = z.output<typeof whatsappInput>;
type WhatsappUpdateInput = z.output<typeof whatsappUpdateInput>;

/**
 * Providers an admin can create on this server: Baileys, and the sandbox (a test phone in the
 * browser) unless the server runs in production without ENABLE_SANDBOX=true.
 */
export function creatableProviders(ctx: AppContext): WhatsappProvider[] {
  return ctx.config.enableSandbox ? ["baileys", "sandbox"] : ["baileys"];
}

function emitUpdate(ctx: AppContext, row: repo.WhatsappRow): void {
  ctx.realtime.emit(rooms.company(row.company_id), channel.whatsapp(row.company_id), { action: "update", whatsapp: presentWhatsapp(row) });
}

export async function listWhatsapps(ctx: AppContext, actor: RequestActor): Promise<Whatsapp[]> {
  return (await repo.listWhatsapps(ctx.sql, actor.companyId)).map((r) => presentWhatsapp(r));
}

export async function showWhatsapp(ctx: AppContext, actor: RequestActor, id: number): Promise<Whatsapp> {
  const row = await repo.findWhatsapp(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  return presentWhatsapp(row, can(actor, "connections-page:editOrDeleteConnection"));
}

async function validateRefs(ctx: AppContext, companyId: number, input: { queueIds?: number[]; transferQueueId?: number | null; integrationId?: number | null }) {
  if (input.integrationId && !(await ctx.sql.maybe("SELECT 1 FROM queue_integrations WHERE company_id = $1 AND id = $2", [companyId, input.integrationId]))) {
    throw new AppError("ERR_VALIDATION", "Integração não encontrada", { fields: { integrationId: "Integração não encontrada" } });
  }
  const ids = [...new Set(input.queueIds ?? [])];
  if (ids.length && (await repo.countCompanyQueues(ctx.sql, companyId, ids)).n !== ids.length) {
    throw new AppError("ERR_VALIDATION", "Fila não encontrada", { fields: { queueIds: "Fila não encontrada" } });
  }
  if (input.transferQueueId && (await repo.countCompanyQueues(ctx.sql, companyId, [input.transferQueueId])).n !== 1) {
    throw new AppError("ERR_VALIDATION", "Fila não encontrada", { fields: { transferQueueId: "Fila não encontrada" } });
  }
}

function fieldsOf(input: WhatsappUpdateInput): repo.WhatsappFields {
  return {
    name: input.name,
    is_default: input.isDefault,
    greeting_message: input.greetingMessage,
    complation_message: input.complationMessage,
    out_of_hours_message: input.outOfHoursMessage,
    rating_message: input.ratingMessage,
    transfer_queue_id: input.transferQueueId,
    expires_ticket: input.expiresTicket,
    expires_inactive_message: input.expiresInactiveMessage,
    time_use_bot_queues: input.timeUseBotQueues,
    max_use_bot_queues: input.maxUseBotQueues,
    prompt_id: input.promptId,
    integration_id: input.integrationId,
  };
}

/** POST /whatsapp: validates, enforces the plan's connection limit, creates, and starts its session (QR code). */
export async function createWhatsapp(ctx: AppContext, actor: RequestActor, input: WhatsappInput): Promise<Whatsapp> {
  const companyId = actor.companyId;
  if (input.provider === "sandbox" && !ctx.config.enableSandbox) throw new AppError("ERR_SANDBOX_DISABLED", "Conexões sandbox estão desativadas neste servidor");
  if (!creatableProviders(ctx).includes(input.provider)) {
    throw new AppError("ERR_VALIDATION", `O provedor ${input.provider} ainda não está disponível`, { fields: { provider: "Indisponível" } });
  }
  if (input.queueIds.length > 1 && !input.greetingMessage.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED", "Mensagem de saudação obrigatória com mais de uma fila");
  await validateRefs(ctx, companyId, input);
  const id = await ctx.sql.tx(async (sql) => {
    const plan = await lockPlanLimit(sql, companyId, "connections");
    if (plan && limitReached(plan)) throw new AppError("ERR_PLAN_LIMIT_REACHED", `O plano permite ${plan.limit} conexões`);
    const isDefault = input.isDefault || plan?.used === 0;
    const newId = await repo.insertWhatsapp(sql, companyId, { ...fieldsOf(input), provider: input.provider, is_default: false });
    if (isDefault) {
      await repo.clearOtherDefaults(sql, companyId, newId);
      await repo.updateWhatsapp(sql, companyId, newId, { is_default: true });
    }
    await repo.setQueues(sql, companyId, newId, [...new Set(input.queueIds)]);
    return newId;
  });
  const row = (await repo.findWhatsapp(ctx.sql, companyId, id))!;
  emitUpdate(ctx, row);
  // the connection is saved: a session that cannot start now is started again from its row's buttons
  // (on a process that runs sessions: this one, or another when this is a web process)
  await channels(ctx)
    .act(companyId, id, "startSession", { provider: row.provider })
    .catch((err: unknown) => ctx.log.warn({ err, companyId, whatsappId: id }, "a new connection's session did not start; it can be started from its row"));
  return presentWhatsapp((await repo.findWhatsapp(ctx.sql, companyId, id))!, true);
}

export async function updateWhatsapp(ctx: AppContext, actor: RequestActor, id: number, input: WhatsappUpdateInput): Promise<Whatsapp> {
  const companyId = actor.companyId;
  const current = await repo.findWhatsapp(ctx.sql, companyId, id);
  if (!current) throw new AppError("ERR_NO_WAPP_FOUND");
  if (input.provider !== undefined && input.provider !== current.provider) {
    throw new AppError("ERR_VALIDATION", "O provedor de uma conexão não pode ser alterado", { fields: { provider: "Imutável" } });
  }
  const queueIds = input.queueIds ?? current.queues.map((q) => q.id);
  const greeting = input.greetingMessage ?? current.greeting_message;
  if (queueIds.length > 1 && !greeting.trim()) throw new AppError("ERR_WAPP_GREETING_REQUIRED", "Mensagem de saudação obrigatória com mais de uma fila");
  // one connection is always the default: it moves by making another one default, not by switching it off
  if (input.isDefault === false && current.is_default) throw new AppError("ERR_NO_OTHER_WHATSAPP", "Deve haver pelo menos um WhatsApp padrão");
  await validateRefs(ctx, companyId, input);
  await ctx.sql.tx(async (sql) => {
    if (input.isDefault) await repo.clearOtherDefaults(sql, companyId, id);
    await repo.updateWhatsapp(sql, companyId, id, fieldsOf(input));
    if (input.queueIds) await repo.setQueues(sql, companyId, id, [...new Set(input.queueIds)]);
  });
  const row = (await repo.findWhatsapp(ctx.sql, companyId, id))!;
  emitUpdate(ctx, row);
  return presentWhatsapp(row, true);
}

/**
 * POST /whatsapp/{id}/token: a new Messages API token for the connection, returned by this call only
 * (the server keeps its keyed hash and last characters); the previous token stops working at once.
 */
export async function regenerateApiToken(ctx: AppContext, actor: RequestActor, id: number): Promise<WhatsappApiToken> {
  const current = await repo.findWhatsapp(ctx.sql, actor.companyId, id);
  if (!current) throw new AppError("ERR_NO_WAPP_FOUND");
  const token = generateApiToken();
  const tokenHint = apiTokenHint(token);
  await repo.setApiToken(ctx.sql, actor.companyId, id, { hash: apiTokenHash(ctx.config.jwtSecret, token), hint: tokenHint });
  emitUpdate(ctx, (await repo.findWhatsapp(ctx.sql, actor.companyId, id))!);
  return { token, tokenHint };
}

/**
 * DELETE /whatsapp/{id}: its session ends, its tickets that are not closed are closed (their history
 * stays), and when it was the default another connection becomes the default.
 */
export async function deleteWhatsapp(ctx: AppContext, actor: RequestActor, id: number): Promise<void> {
  const companyId = actor.companyId;
  const current = await repo.findWhatsapp(ctx.sql, companyId, id);
  if (!current) throw new AppError("ERR_NO_WAPP_FOUND");
  await channels(ctx).forget(id);
  await ctx.sql.tx(async (sql) => {
    await sql.exec(
      "UPDATE tickets SET status = 'closed', closed_at = now(), updated_at = now() WHERE company_id = $1 AND whatsapp_id = $2 AND status <> 'closed'",
      [companyId, id],
    );
    await repo.deleteWhatsapp(sql, companyId, id);
    if (current.is_default) {
      await sql.exec(
        "UPDATE whatsapps SET is_default = true WHERE id = (SELECT id FROM whatsapps WHERE company_id = $1 ORDER BY id LIMIT 1)",
        [companyId],
      );
    }
  });
  ctx.realtime.emit(rooms.company(companyId), channel.whatsapp(companyId), { action: "delete", whatsappId: id });
  if (current.is_default) {
    const promoted = await repo.defaultWhatsapp(ctx.sql, companyId);
    if (promoted) emitUpdate(ctx, promoted);
  }
}

export async function sessionAction(
  ctx: AppContext,
  actor: RequestActor,
  id: number,
  action: "start" | "restart" | "stop",
  pairingNumber?: string,
): Promise<WhatsappSession> {
  const row = await repo.findWhatsapp(ctx.sql, actor.companyId, id);
  if (!row) throw new AppError("ERR_NO_WAPP_FOUND");
  try {
    // on the process that runs the connection (a logout there unlinks the phone); a start of a session
    // nobody runs goes to a process that runs sessions; a stop of one nobody runs just marks it stopped
    if (action === "stop") {
      await channels(ctx)
        .act(actor.companyId, id, "stopSession", {})
        .catch(async (err: unknown) => {
          // nobody runs it, or its process does not answer: taking the lease over fences that process
          if (!(err instanceof AppError) || (err.code !== "ERR_WAPP_NOT_INITIALIZED" && err.code !== "ERR_WAPP_OWNER_UNREACHABLE")) throw err;
          await channels(ctx).disconnect(actor.companyId, id);
        });
    } else await channels(ctx).act(actor.companyId, id, "startSession", { provider: row.provider, ...(pairingNumber ? { pairingNumber } : {}) });
  } catch (err) {
    // a driver that cannot open its session answers with the catalogue's code, not a 500
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_WAPP_NOT_INITIALIZED", err instanceof Error ? err.message : "A sessão não pôde ser iniciada");
  }
  return presentSession((await repo.findWhatsapp(ctx.sql, actor.companyId, id))!);
}
