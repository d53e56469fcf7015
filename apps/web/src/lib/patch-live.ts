import type { Query, QueryClient, QueryKey } from "@tanstack/react-query";

type Update = (old: unknown) => unknown;

/** The events that arrived while a list's request was in flight, by query, to replay on its answer. */
const heldForAnswer = new WeakMap<Query, Update[]>();

/**
 * Applies a real-time event to a cached list. While the list's request is in flight its answer may
 * predate the event (a campaign analysed while `/campaigns` loaded kept 'Em Análise' until the next
 * refresh), so the event is held and replayed, in arrival order, on the answer once it lands: no
 * second request, and a stream of events (a running campaign's counters) never restarts the fetch.
 */
export function patchLive<T>(queryClient: QueryClient, key: QueryKey, update: (old: T | undefined) => T | undefined): void {
  const cache = queryClient.getQueryCache();
  const query = cache.find({ queryKey: key, exact: true });
  if (!query || query.state.fetchStatus !== "fetching") {
    queryClient.setQueryData<T>(key, update);
    return;
  }
  const held = heldForAnswer.get(query);
  if (held) {
    held.push(update as Update);
    return;
  }
  heldForAnswer.set(query, [update as Update]);
  const unsubscribe = cache.subscribe((event) => {
    if (event.query !== query || query.state.fetchStatus === "fetching") return;
    unsubscribe();
    const updates = heldForAnswer.get(query) ?? [];
    heldForAnswer.delete(query);
    // on the answer (or, if the request failed, on the data shown before it)
    for (const u of updates) queryClient.setQueryData<T>(key, u as (old: T | undefined) => T | undefined);
  });
}
