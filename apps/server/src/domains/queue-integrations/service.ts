import {
  channel,
  LIMITS,
  type QueueIntegration,
  type QueueIntegrationEvent,
  type queueIntegrationInput,
  type QueueIntegrationsPage,
  type queueIntegrationTestInput,
} from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { nextRowId } from "../../core/secrets/columns.js";
import { SecretUnreadable } from "../../core/secrets/sealer.js";
import { presentIntegration } from "./presenter.js";
import { BotCallFailed } from "./providers/call.js";
import { detectIntent } from "./providers/dialogflow.js";
import { maskServiceAccount, parseServiceAccount, type ServiceAccount } from "./providers/service-account.js";
import * as repo from "./repository.js";

type Input = z.output<typeof queueIntegrationInput>;

const notFound = () => new AppError("ERR_QUEUE_INTEGRATION_NOT_FOUND", "Integração não encontrada");

/** The company's sockets of super users (the page's audience): they join this room on connect (routes.ts). */
export const integrationsRoom = (companyId: number) => `company:${companyId}:queueIntegrations`;

function emit(ctx: AppContext, companyId: number, event: QueueIntegrationEvent) {
  ctx.realtime.emit(integrationsRoom(companyId), channel.queueIntegration(companyId), event);
}

export async function pageIntegrations(
  ctx: AppContext,
  companyId: number,
  q: { searchParam: string; pageNumber: number; limit?: "all" },
): Promise<QueueIntegrationsPage> {
  const limit = q.limit === "all" ? null : LIMITS.listPageSize;
  const offset = limit === null ? 0 : (q.pageNumber - 1) * limit;
  const { rows, count } = await repo.pageIntegrations(ctx.sql, companyId, { search: q.searchParam.trim(), limit, offset });
  return { queueIntegrations: rows.map(presentIntegration), count, hasMore: count > offset + rows.length };
}

export async function showIntegration(ctx: AppContext, companyId: number, id: number): Promise<QueueIntegration> {
  const row = await repo.findIntegration(ctx.sql, companyId, id);
  if (!row) throw notFound();
  return presentIntegration(row);
}

/** The stored values of a form: the name copied to projectName for the HTTP types; the key sealed (kept when left empty on edit). */
function values(ctx: AppContext, companyId: number, id: number, input: Input, current: repo.QueueIntegrationRow | null): repo.IntegrationValues {
  let sealed = "";
  let mask = "";
  if (input.type === "dialogflow") {
    if (input.jsonContent) {
      const sa = parseServiceAccount(input.jsonContent);
      sealed = ctx.secrets.seal(servicePlace(companyId, id), input.jsonContent);
      mask = maskServiceAccount(sa);
    } else if (current?.type === "dialogflow" && current.json_content_sealed) {
      sealed = current.json_content_sealed;
      mask = current.json_content_mask;
    } else {
      throw new AppError("ERR_VALIDATION", "jsonContent: Obrigatório", { fields: { jsonContent: "Obrigatório" } });
    }
  }
  const http = input.type !== "dialogflow";
  return {
    type: input.type,
    name: input.name,
    projectName: http ? input.name : input.projectName,
    jsonContentSealed: sealed,
    jsonContentMask: mask,
    language: input.language,
    urlN8N: http ? input.urlN8N : "",
    typebotSlug: input.type === "typebot" ? input.typebotSlug : "",
    typebotExpires: input.typebotExpires,
    typebotDelayMessage: input.typebotDelayMessage,
    typebotKeywordFinish: input.typebotKeywordFinish,
    typebotKeywordRestart: input.typebotKeywordRestart,
    typebotUnknownMessage: input.typebotUnknownMessage,
    typebotRestartMessage: input.typebotRestartMessage,
  };
}

export async function createIntegration(ctx: AppContext, companyId: number, input: Input): Promise<QueueIntegration> {
  const id = await nextRowId(ctx.sql, "queue_integrations");
  const record = presentIntegration(await repo.insertIntegration(ctx.sql, companyId, id, values(ctx, companyId, id, input, null)));
  emit(ctx, companyId, { action: "create", queueIntegration: record });
  return record;
}

export async function updateIntegration(ctx: AppContext, companyId: number, id: number, input: Input): Promise<QueueIntegration> {
  const current = await repo.findIntegration(ctx.sql, companyId, id);
  if (!current) throw notFound();
  const row = await repo.updateIntegration(ctx.sql, companyId, id, values(ctx, companyId, id, input, current));
  if (!row) throw notFound();
  const record = presentIntegration(row);
  emit(ctx, companyId, { action: "update", queueIntegration: record });
  return record;
}

export async function deleteIntegration(ctx: AppContext, companyId: number, id: number): Promise<void> {
  const deleted = await ctx.sql.tx((sql) => repo.deleteIntegration(sql, companyId, id));
  if (!deleted) throw notFound();
  emit(ctx, companyId, { action: "delete", integrationId: id });
}

const servicePlace = (companyId: number, id: number) => ({ companyId, column: "queue_integrations.json_content_sealed", row: id });

/** The service account of a stored Dialogflow integration (SecretUnreadable when its key is gone). */
export function storedServiceAccount(ctx: AppContext, row: repo.QueueIntegrationRow): ServiceAccount {
  return parseServiceAccount(ctx.secrets.open(servicePlace(row.company_id, row.id), row.json_content_sealed));
}

/**
 * POST /queueIntegration/testSession: one real detectIntent ("Olá") with the typed key, or the stored
 * key of `id` when none is typed; the agent's answer text comes back, a failure is ERR_INTEGRATION_TEST_FAILED.
 */
export async function testSession(ctx: AppContext, companyId: number, input: z.output<typeof queueIntegrationTestInput>): Promise<{ ok: true; reply: string }> {
  let sa: ServiceAccount;
  if (input.jsonContent) sa = parseServiceAccount(input.jsonContent);
  else {
    const row = input.id ? await repo.findIntegration(ctx.sql, companyId, input.id) : null;
    if (!row || row.type !== "dialogflow") throw new AppError("ERR_VALIDATION", "jsonContent: Obrigatório", { fields: { jsonContent: "Obrigatório" } });
    try {
      sa = storedServiceAccount(ctx, row);
    } catch (err) {
      if (err instanceof SecretUnreadable) throw new AppError("ERR_INTEGRATION_BAD_CREDENTIALS", "A chave guardada não pode ser lida: informe-a novamente");
      throw err;
    }
  }
  try {
    const turn = await detectIntent(ctx.config.dialogflowApiUrl, sa, {
      projectName: input.projectName,
      session: `atende-test-${companyId}`,
      text: "Olá",
      language: input.language,
    });
    return { ok: true, reply: turn.replies.join("\n") };
  } catch (err) {
    if (!(err instanceof BotCallFailed) && !(err instanceof Error && err.message.startsWith("dialogflow"))) throw err;
    ctx.log.warn({ err, companyId }, "queue integration test session failed");
    throw new AppError("ERR_INTEGRATION_TEST_FAILED", `O Dialogflow não respondeu: ${err.message}`);
  }
}
