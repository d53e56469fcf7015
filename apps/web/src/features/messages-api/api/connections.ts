import type { Whatsapp } from "@atende/shared";
import { api } from "../../../lib/api";

export const messagesApiKeys = {
  connections: ["messages-api", "connections"] as const,
};

/** The company's connections, to fill a test form's token. */
export function fetchConnections(): Promise<Whatsapp[]> {
  return api<Whatsapp[]>("/whatsapp", { query: { session: 0 } });
}

/** One connection with its token (admins only; empty when none is set). */
export async function fetchConnectionToken(id: number): Promise<string> {
  const w = await api<Whatsapp>(`/whatsapp/${id}`);
  return w.token ?? "";
}
