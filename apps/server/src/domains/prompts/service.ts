import { channel, PROMPT_DEFAULTS, promptInput, type Prompt, type PromptEvent } from "@atende/shared";
import type { z } from "zod";
import type { AppContext } from "../../core/context.js";
import { AppError } from "../../core/errors.js";
import { rooms } from "../../core/realtime.js";
import { nextRowId } from "../../core/secrets/columns.js";
import { presentPrompt } from "./presenter.js";
import * as repo from "./repository.js";

type Input = z.output<typeof promptInput>;

const notFound = () => new AppError("ERR_PROMPT_NOT_FOUND", "Prompt não encontrado");
const noQueue = () => new AppError("ERR_VALIDATION", "Informe o setor", { fields: { queueId: "Informe o setor" } });

function emit(ctx: AppContext, companyId: number, payload: PromptEvent): void {
  ctx.realtime.emit(rooms.company(companyId), channel.prompt(companyId), payload);
}

export async function listPrompts(ctx: AppContext, companyId: number): Promise<{ prompts: Prompt[] }> {
  return { prompts: (await repo.listPrompts(ctx.sql, companyId)).map((r) => presentPrompt(ctx.secrets, r)) };
}

export async function showPrompt(ctx: AppContext, companyId: number, id: number): Promise<Prompt> {
  const row = await repo.findPrompt(ctx.sql, companyId, id);
  if (!row) throw notFound();
  return presentPrompt(ctx.secrets, row);
}

/** The stored values from the input: new keys sealed, omitted or empty keys keep the stored ones. */
async function valuesOf(ctx: AppContext, companyId: number, id: number, input: Input, current: repo.PromptRow | null): Promise<repo.PromptValues> {
  if (!(await repo.queueExists(ctx.sql, companyId, input.queueId))) throw noQueue();
  const seal = (column: "api_key" | "voice_key", plain: string | undefined, stored: string) =>
    plain ? ctx.secrets.seal({ companyId, column: `prompts.${column}`, row: id }, plain) : stored;
  const apiKey = seal("api_key", input.apiKey, current?.api_key ?? "");
  if (!apiKey) throw new AppError("ERR_PROMPT_API_KEY_REQUIRED", "Informe a chave da API", { fields: { apiKey: "Informe a chave da API" } });
  return {
    name: input.name,
    prompt: input.prompt,
    apiKey,
    baseUrl: (input.baseUrl || current?.base_url || PROMPT_DEFAULTS.baseUrl).replace(/\/+$/, ""),
    model: input.model || current?.model || PROMPT_DEFAULTS.model,
    voice: input.voice,
    voiceKey: seal("voice_key", input.voiceKey, current?.voice_key ?? ""),
    voiceRegion: input.voiceRegion,
    maxTokens: input.maxTokens,
    temperature: input.temperature,
    maxMessages: input.maxMessages,
    queueId: input.queueId,
  };
}

export async function createPrompt(ctx: AppContext, companyId: number, input: Input): Promise<Prompt> {
  const id = await nextRowId(ctx.sql, "prompts");
  await repo.insertPrompt(ctx.sql, companyId, id, await valuesOf(ctx, companyId, id, input, null));
  const prompt = await showPrompt(ctx, companyId, id);
  emit(ctx, companyId, { action: "create", prompt });
  return prompt;
}

export async function updatePrompt(ctx: AppContext, companyId: number, id: number, input: Input): Promise<Prompt> {
  const current = await repo.findPrompt(ctx.sql, companyId, id);
  if (!current) throw notFound();
  if (!(await repo.updatePrompt(ctx.sql, companyId, id, await valuesOf(ctx, companyId, id, input, current)))) throw notFound();
  const prompt = await showPrompt(ctx, companyId, id);
  emit(ctx, companyId, { action: "update", prompt });
  return prompt;
}

export async function deletePrompt(ctx: AppContext, companyId: number, id: number): Promise<void> {
  if (!(await repo.deletePrompt(ctx.sql, companyId, id))) throw notFound();
  emit(ctx, companyId, { action: "delete", promptId: id });
}
