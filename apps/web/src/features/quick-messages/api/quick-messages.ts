import type { QuickMessage, QuickMessageInput, QuickMessagesPage } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export const quickMessageKeys = {
  all: ["quick-messages"] as const,
  /** Every cached search of the list (the prefix live events patch). */
  lists: ["quick-messages", "list"] as const,
  list: (search: string) => ["quick-messages", "list", search] as const,
};

export async function fetchQuickMessagesPage(search: string, pageNumber: number, userId: number, signal?: AbortSignal): Promise<ListPage<QuickMessage>> {
  const res = await api<QuickMessagesPage>("/quick-messages", { query: { searchParam: search, pageNumber, userId }, signal });
  return { items: res.records, hasMore: res.hasMore, count: res.count };
}

export function createQuickMessage(input: QuickMessageInput): Promise<QuickMessage> {
  return api<QuickMessage>("/quick-messages", { method: "POST", body: input });
}

export function updateQuickMessage(id: number, input: Partial<QuickMessageInput>): Promise<QuickMessage> {
  return api<QuickMessage>(`/quick-messages/${id}`, { method: "PUT", body: input });
}

export function deleteQuickMessage(id: number): Promise<unknown> {
  return api(`/quick-messages/${id}`, { method: "DELETE" });
}

export function uploadQuickMessageMedia(id: number, file: File): Promise<QuickMessage> {
  const form = new FormData();
  form.append("typeArch", "quickMessage");
  form.append("file", file);
  return api<QuickMessage>(`/quick-messages/${id}/media-upload`, { method: "POST", body: form });
}

export function removeQuickMessageMedia(id: number): Promise<QuickMessage> {
  return api<QuickMessage>(`/quick-messages/${id}/media-upload`, { method: "DELETE" });
}
