import { queryOptions, useQuery } from "@tanstack/react-query";
import type { QueueIntegration, QueueIntegrationInput, QueueIntegrationsPage } from "@atende/shared";
import { api } from "../../../lib/api";
import type { ListPage } from "../../../components/use-paged-list";

export const queueIntegrationKeys = {
  all: ["queueIntegrations"] as const,
  /** Every cached search of the page's list (the prefix live events patch). */
  lists: ["queueIntegrations", "list"] as const,
  list: (search: string) => ["queueIntegrations", "list", search] as const,
  /** Every integration at once (the queue and connection dialogs' choice). */
  options: ["queueIntegrations", "options"] as const,
};

export async function fetchIntegrationsPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<ListPage<QueueIntegration>> {
  const res = await api<QueueIntegrationsPage>("/queueIntegration", { query: { searchParam: search, pageNumber }, signal });
  return { items: res.queueIntegrations, hasMore: res.hasMore, count: res.count };
}

export const integrationOptionsQuery = () =>
  queryOptions({
    queryKey: queueIntegrationKeys.options,
    queryFn: ({ signal }) => api<QueueIntegrationsPage>("/queueIntegration", { query: { limit: "all" }, signal }).then((r) => r.queueIntegrations),
  });

/** The company's integrations for a choice list; off (empty) for users the page's gate refuses. */
export function useIntegrationOptions(enabled: boolean) {
  return useQuery({ ...integrationOptionsQuery(), enabled });
}

export function createIntegration(input: QueueIntegrationInput): Promise<QueueIntegration> {
  return api<QueueIntegration>("/queueIntegration", { method: "POST", body: input });
}

export function updateIntegration(id: number, input: QueueIntegrationInput): Promise<QueueIntegration> {
  return api<QueueIntegration>(`/queueIntegration/${id}`, { method: "PUT", body: input });
}

export function deleteIntegration(id: number): Promise<unknown> {
  return api(`/queueIntegration/${id}`, { method: "DELETE" });
}

export function testDialogflowSession(input: { projectName: string; jsonContent: string; language: string; id?: number }): Promise<{ ok: true; reply: string }> {
  return api<{ ok: true; reply: string }>("/queueIntegration/testSession", { method: "POST", body: input });
}
