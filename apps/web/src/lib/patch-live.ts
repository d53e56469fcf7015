import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Applies a real-time event to a cached list. While the list's request is in flight its answer may
 * predate the event (a campaign imported while the page was loading would keep its old status until a
 * reload), so the list is asked again instead; otherwise the event is merged into the cache at once.
 */
export function patchLive<T>(queryClient: QueryClient, key: QueryKey, update: (old: T | undefined) => T | undefined): void {
  if (queryClient.getQueryState(key)?.fetchStatus === "fetching") {
    void queryClient.invalidateQueries({ queryKey: key, exact: true });
    return;
  }
  queryClient.setQueryData<T>(key, update);
}
