import { queryOptions } from "@tanstack/react-query";
import type { Queue, Whatsapp, WhatsappApiToken, WhatsappInput, WhatsappProviders, WhatsappSession, WhatsappUpdateInput } from "@atende/shared";
import { api } from "../../../lib/api";

export const connectionKeys = {
  list: ["connections", "list"] as const,
  one: (id: number) => ["connections", "one", id] as const,
  queues: ["connections", "queues"] as const,
  prompts: ["connections", "prompts"] as const,
  providers: ["connections", "providers"] as const,
};

export const connectionsQuery = () =>
  queryOptions({ queryKey: connectionKeys.list, queryFn: () => api<Whatsapp[]>("/whatsapp", { query: { session: 0 } }) });

/** One connection with its token hint (admins only): fills the edit form. Always fresh. */
export const connectionQuery = (id: number) =>
  queryOptions({ queryKey: connectionKeys.one(id), queryFn: () => api<Whatsapp>(`/whatsapp/${id}`, { query: { session: 0 } }), staleTime: 0, gcTime: 0 });

/** The connection types this server lets admins create (no sandbox in production unless enabled). */
export const providersQuery = () =>
  queryOptions({ queryKey: connectionKeys.providers, queryFn: () => api<WhatsappProviders>("/whatsapp/providers"), staleTime: 5 * 60_000 });

export const queuesQuery = () => queryOptions({ queryKey: connectionKeys.queues, queryFn: () => api<Queue[]>("/queue"), staleTime: 60_000 });

export interface PromptOption {
  id: number;
  name: string;
}

/** AI prompts (GET /prompt) exist only where that feature is installed and allowed: callers hide the choice on failure. */
export const promptsQuery = () =>
  queryOptions({
    queryKey: connectionKeys.prompts,
    queryFn: async (): Promise<PromptOption[]> => {
      const data = await api<unknown>("/prompt");
      const list = Array.isArray(data) ? data : ((data as { prompts?: unknown[] } | undefined)?.prompts ?? []);
      return (list as PromptOption[]).map(({ id, name }) => ({ id, name }));
    },
    retry: false,
    staleTime: 60_000,
  });

export function createConnection(input: WhatsappInput): Promise<Whatsapp> {
  return api<Whatsapp>("/whatsapp", { method: "POST", body: input });
}

export function updateConnection(id: number, input: WhatsappUpdateInput): Promise<Whatsapp> {
  return api<Whatsapp>(`/whatsapp/${id}`, { method: "PUT", body: input });
}

/** A new Messages API token: this answer is the only time it is shown; the previous one stops working. */
export function generateApiToken(id: number): Promise<WhatsappApiToken> {
  return api<WhatsappApiToken>(`/whatsapp/${id}/token`, { method: "POST" });
}

export function deleteConnection(id: number): Promise<void> {
  return api<void>(`/whatsapp/${id}`, { method: "DELETE" });
}

export type SessionAction = "start" | "newQr" | "disconnect";
const METHOD: Record<SessionAction, string> = { start: "POST", newQr: "PUT", disconnect: "DELETE" };

/** POST starts the session (QR code), PUT asks for a new QR code, DELETE disconnects. */
export function sessionAction(id: number, action: SessionAction): Promise<WhatsappSession> {
  return api<WhatsappSession>(`/whatsappsession/${id}`, { method: METHOD[action] });
}

/** POST with a phone number (Baileys): the session pairs by an 8-character code instead of a QR code. */
export function requestPairingCode(id: number, phoneNumber: string): Promise<WhatsappSession> {
  return api<WhatsappSession>(`/whatsappsession/${id}`, { method: "POST", body: { phoneNumber } });
}
