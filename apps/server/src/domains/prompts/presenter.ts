import type { Prompt } from "@atende/shared";
import { maskSecret, SecretUnreadable, type SecretPlace, type SecretSealer } from "../../core/secrets/sealer.js";
import type { PromptRow } from "./repository.js";

/** A sealed key as the API shows it: masked, or "" when it cannot be read (its key is gone: type it again). */
function masked(secrets: SecretSealer, place: SecretPlace, sealed: string): string {
  if (!sealed) return "";
  try {
    return maskSecret(secrets.open(place, sealed));
  } catch (err) {
    if (err instanceof SecretUnreadable) return "";
    throw err;
  }
}

/** The only place deciding what of a prompt leaves the server: the keys never whole. */
export function presentPrompt(secrets: SecretSealer, r: PromptRow): Prompt {
  return {
    id: r.id,
    name: r.name,
    prompt: r.prompt,
    apiKey: masked(secrets, { companyId: r.company_id, column: "prompts.api_key", row: r.id }, r.api_key),
    baseUrl: r.base_url,
    model: r.model,
    voice: r.voice,
    voiceKey: masked(secrets, { companyId: r.company_id, column: "prompts.voice_key", row: r.id }, r.voice_key),
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
