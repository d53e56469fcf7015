import type { Queue, QueueInput, QueueUpdateInput } from "@atende/shared";
import { api } from "../../../lib/api";

export const queueKeys = {
  all: ["queues"] as const,
  prompts: ["queues", "prompts"] as const,
  integrations: ["queues", "integrations"] as const,
};

export function fetchQueues(): Promise<Queue[]> {
  return api<Queue[]>("/queue");
}

export function createQueue(input: QueueInput): Promise<Queue> {
  return api<Queue>("/queue", { method: "POST", body: input });
}

export function updateQueue(id: number, input: QueueUpdateInput): Promise<Queue> {
  return api<Queue>(`/queue/${id}`, { method: "PUT", body: input });
}

export function deleteQueue(id: number): Promise<unknown> {
  return api(`/queue/${id}`, { method: "DELETE" });
}

export interface Option {
  id: number;
  name: string;
}

/** Lists answered either as an array or wrapped (`{ prompts }`, `{ queueIntegrations }`). */
function unwrap(data: unknown, key: string): Option[] {
  const list = Array.isArray(data) ? data : ((data as Record<string, unknown> | undefined)?.[key] ?? []);
  return (list as { id: number; name: string }[]).map(({ id, name }) => ({ id, name }));
}

/** AI prompts the queue may use (GET /prompt); a failure hides the choice. */
export async function fetchPrompts(): Promise<Option[]> {
  return unwrap(await api("/prompt"), "prompts");
}

/** Integrations the queue may use (GET /queueIntegration); a failure hides the choice. */
export async function fetchIntegrations(): Promise<Option[]> {
  return unwrap(await api("/queueIntegration", { query: { limit: "all" } }), "queueIntegrations");
}
