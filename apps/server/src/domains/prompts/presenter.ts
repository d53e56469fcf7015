import type { Prompt } from "@atende/shared";
import { maskSecret, openSecret, SecretUnreadable } from "../../core/secret-box.js";
import type { PromptRow } from "./repository.js";

/** A sealed key as the API shows it: masked, or "" when it cannot be read (JWT_SECRET changed: type it again). */
function masked(appSecret: string, sealed: string): string {
  if (!sealed) return "";
  try {
    return maskSecret(openSecret(appSecret, sealed));
  } catch (err) {
    if (err instanceof SecretUnreadable) return "";
    throw err;
  }
}

/** The only place deciding what of a prompt leaves the server: the keys never whole. */
export function presentPrompt(appSecret: string, r: PromptRow): Prompt {
  return {
    id: r.id,
    name: r.name,
    prompt: r.prompt,
    apiKey: masked(appSecret, r.api_key),
    baseUrl: r.base_url,
    model: r.model,
    voice: r.voice,
    voiceKey: masked(appSecret, r.voice_key),
    voiceRegion: r.voice_region,
    maxTokens: r.max_tokens,
    temperature: Number(r.temperature),
    maxMessages: r.max_messages,
    queueId: r.queue_id,
    queue: r.queue_name !== null ? { id: r.queue_id, name: r.queue_name, color: r.queue_color ?? "" } : null,
    companyId: r.company_id,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
