import type { Prompt, PromptInput, Queue } from "@atende/shared";
import { api } from "../../../lib/api";

export const promptKeys = { all: ["prompts"] as const, queues: ["prompts", "queues"] as const };

export async function fetchPrompts(signal?: AbortSignal): Promise<Prompt[]> {
  return (await api<{ prompts: Prompt[] }>("/prompt", { signal })).prompts;
}

export function createPrompt(input: PromptInput): Promise<Prompt> {
  return api<Prompt>("/prompt", { method: "POST", body: input });
}

export function updatePrompt(id: number, input: PromptInput): Promise<Prompt> {
  return api<Prompt>(`/prompt/${id}`, { method: "PUT", body: input });
}

export function deletePrompt(id: number): Promise<unknown> {
  return api(`/prompt/${id}`, { method: "DELETE" });
}

/** The company's queues, for the prompt's queue choice. */
export function fetchQueueChoices(signal?: AbortSignal): Promise<Queue[]> {
  return api<Queue[]>("/queue", { signal });
}
