import { queryOptions } from "@tanstack/react-query";
import type { SandboxInboundInput, SandboxOutboxItem, Whatsapp, WhatsappSession } from "@atende/shared";
import { api } from "../../../lib/api";

export const sandboxKeys = {
  connection: (id: number) => ["sandbox", "connection", id] as const,
  outbox: (id: number, number: string) => ["sandbox", "outbox", id, number] as const,
};

export const connectionQuery = (id: number) =>
  queryOptions({ queryKey: sandboxKeys.connection(id), queryFn: () => api<Whatsapp>(`/whatsapp/${id}`, { query: { session: 0 } }) });

/** The phone's conversation with one number (both directions), refreshed every 2 s. */
export const outboxQuery = (id: number, number: string) =>
  queryOptions({
    queryKey: sandboxKeys.outbox(id, number),
    queryFn: () => api<{ records: SandboxOutboxItem[] }>(`/sandbox/${id}/outbox`, { query: { number } }).then((r) => r.records),
    refetchInterval: 2000,
    enabled: number.length >= 8,
  });

export function scan(id: number): Promise<WhatsappSession> {
  return api<WhatsappSession>(`/sandbox/${id}/scan`, { method: "POST" });
}

export function sendInbound(id: number, input: SandboxInboundInput): Promise<{ messageId: number; ticketId: number }> {
  return api(`/sandbox/${id}/inbound`, { method: "POST", body: input });
}

export function markPhoneRead(id: number, number: string): Promise<{ updated: number }> {
  return api(`/sandbox/${id}/read`, { method: "POST", body: { number } });
}
